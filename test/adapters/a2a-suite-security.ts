/**
 * @module test/adapters/a2a-suite-security — the A2A transport suite's security cases, for every way of serving:
 * an agent whose card requires a bearer token (§7.4: the server MUST authenticate every request) refuses every
 * A2A method without a valid one on both bindings, streaming included, with the 401 challenge, while its public
 * card stays readable (§8.2); the verifiers given once to the agent (A2aServerOptions `verifiers`), or its own
 * `http.authenticate`, apply on every adapter without being given to the adapter; and an agent whose card requires
 * a scheme nothing can check does not start, with one line naming the scheme.
 */
import { afterEach, expect, it } from 'vitest';
import { A2aServer, type A2aServerOptions } from '../../runtime/a2a/server.ts';
import type { AgentCard } from '../../runtime/a2a/types.ts';
import { testCard, userMessage } from '../helpers/a2a-server.ts';
import { send } from '../helpers/http-client.ts';
import type { A2aTarget, Served } from './targets.ts';

const RPC_HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const REST_HEADERS = { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' };
const CARD_PATH = '/.well-known/agent-card.json';
const TOKEN = 'a-good-token';

/** The test card requiring an HTTP bearer token (§4.5.3), with an extended card for token holders. */
function securedCard(): AgentCard {
  return {
    ...testCard({ streaming: true, extendedAgentCard: true }),
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
}

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/** Every A2A method a request without the token must not reach, one per binding and kind of answer. */
const CALLS: readonly {
  readonly what: string;
  readonly path: string;
  readonly method?: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}[] = [
  { what: 'JSON-RPC SendMessage', path: '/a2a', headers: RPC_HEADERS, body: rpc('SendMessage', userMessage('hello')) },
  {
    what: 'JSON-RPC SendStreamingMessage',
    path: '/a2a',
    headers: { ...RPC_HEADERS, accept: 'text/event-stream' },
    body: rpc('SendStreamingMessage', userMessage('hello')),
  },
  { what: 'JSON-RPC GetExtendedAgentCard', path: '/a2a', headers: RPC_HEADERS, body: rpc('GetExtendedAgentCard', {}) },
  { what: 'HTTP+JSON message:send', path: '/rest/message:send', headers: REST_HEADERS, body: JSON.stringify(userMessage('hello')) },
  { what: 'HTTP+JSON message:stream', path: '/rest/message:stream', headers: REST_HEADERS, body: JSON.stringify(userMessage('hello')) },
  { what: 'HTTP+JSON GET tasks/{id}', path: '/rest/tasks/x', method: 'GET', headers: { 'a2a-version': '1.0' } },
  { what: 'HTTP+JSON GET extendedAgentCard', path: '/rest/extendedAgentCard', method: 'GET', headers: { 'a2a-version': '1.0' } },
];

export function a2aSecurityCases(target: A2aTarget): void {
  const running: Served[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
  });
  const serve = async (options: Partial<A2aServerOptions>) => {
    const server = new A2aServer({
      card: securedCard(),
      extendedCard: { ...securedCard(), description: 'For token holders.' },
      executor: { execute: async (ctx) => ctx.reply('hi') },
      log: () => {},
      ...options,
    });
    const served = await target.start(server, {});
    running.push(served);
    return served.url;
  };
  const call = (url: string, c: (typeof CALLS)[number], token?: string) =>
    send(`${url}${c.path}`, {
      ...(c.method ? { method: c.method } : {}),
      headers: { ...c.headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      ...(c.body === undefined ? {} : { body: c.body }),
    });

  it('a card requiring a bearer token: every method on both bindings is 401 without it or with a wrong one, the card stays public', async () => {
    const url = await serve({ verifiers: { bearer: (token) => token === TOKEN } });
    for (const c of CALLS) {
      const missing = await call(url, c);
      expect([missing.status, missing.headers['www-authenticate']], c.what).toEqual([401, 'Bearer realm="Test agent"']);
      const wrong = await call(url, c, 'forged');
      expect([wrong.status, wrong.headers['www-authenticate']], c.what).toEqual([
        401,
        'Bearer realm="Test agent", error="invalid_token", error_description="the token is not valid for bearer"',
      ]);
    }
    const card = await send(`${url}${CARD_PATH}`, { method: 'GET' });
    expect([card.status, (card.json as { securityRequirements?: unknown })?.securityRequirements]).toEqual([
      200,
      [{ schemes: { bearer: { list: [] } } }],
    ]);
    const rpcOk = await call(url, CALLS[0]!, TOKEN);
    expect([rpcOk.status, rpcOk.json]).toMatchObject([200, { result: { message: { parts: [{ text: 'hi' }] } } }]);
    const restOk = await call(url, CALLS[3]!, TOKEN);
    expect([restOk.status, restOk.json]).toMatchObject([200, { message: { parts: [{ text: 'hi' }] } }]);
    const extended = await call(url, CALLS[6]!, TOKEN);
    expect([extended.status, (extended.json as { description?: string })?.description]).toEqual([200, 'For token holders.']);
  });

  it("the agent's own http.authenticate applies without being given to the adapter", async () => {
    const challenge = 'Bearer realm="own"';
    const url = await serve({
      http: { authenticate: (req) => (req.headers['authorization'] === `Bearer ${TOKEN}` ? { ok: true } : { ok: false, challenge }) },
    });
    for (const c of [CALLS[0]!, CALLS[3]!]) {
      const refused = await call(url, c);
      expect([refused.status, refused.headers['www-authenticate']], c.what).toEqual([401, challenge]);
      expect((await call(url, c, TOKEN)).status, c.what).toBe(200);
    }
  });

  it('a card requiring a scheme with no verifier given does not start: one line naming the scheme', async () => {
    const server = new A2aServer({ card: securedCard(), executor: { execute: async () => {} }, log: () => {} });
    await expect(target.start(server, {})).rejects.toMatchObject({
      name: 'AuthError',
      check: 'configuration',
      message:
        'agent "Test agent" declares security scheme "bearer" (card.securitySchemes.bearer) but no bearer verifier was given: ' +
        'pass verifiers: { bearer: (token) => … } (a function of yours, or jwtVerifier of @wiregen/runtime/auth) to createAgent or A2aServer',
    });
    const basic: AgentCard = {
      ...securedCard(),
      securitySchemes: { basic: { httpAuthSecurityScheme: { scheme: 'Basic' } } },
      securityRequirements: [{ schemes: { basic: { list: [] } } }],
    };
    await expect(
      target.start(new A2aServer({ card: basic, verifiers: { bearer: () => true }, executor: { execute: async () => {} }, log: () => {} }), {}),
    ).rejects.toThrow(
      'agent "Test agent" declares security scheme "basic" (card.securitySchemes.basic), which no verifier checks: verifiers do not check HTTP basic: ' +
        'pass http: { authenticate: (req) => … }, a check of your own, to createAgent or A2aServer',
    );
  });
}
