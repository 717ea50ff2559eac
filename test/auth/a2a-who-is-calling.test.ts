/**
 * Who is calling reaches an A2A executor: the bearer token the agent card's security verified
 * (`verifiers.bearer` = `jwtVerifier`, a JWT minted by a real authorization server on loopback, local-as.ts)
 * arrives as `ctx.auth`, the AuthInfo MCP handlers get, on both bindings (JSON-RPC SendMessage, HTTP+JSON
 * `POST /message:send`) and every HTTP adapter. A requirement met by an API key carries no bearer token:
 * `ctx.auth` is undefined. An `authenticate` of the agent's own hands over what it returns as `auth`. The
 * expected fields are the claims the authorization server signed (RFC 9068 §2.2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../../generated/a2a-1.0/index.ts';
import type { AuthRequest } from '../../runtime/a2a/http-options.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import type { ExecutionContext } from '../../runtime/a2a/types.ts';
import { jwtVerifier, type AuthInfo } from '../../runtime/auth/index.ts';
import { A2A_TARGETS, type Served } from '../adapters/targets.ts';
import { testCard, userMessage } from '../helpers/a2a-server.ts';
import { A2A_AUDIENCE, startLocalAs, type LocalAs } from './local-as.ts';

const API_KEY = 'k-1234';
let as: LocalAs;
let card: AgentCard;

beforeAll(async () => {
  as = await startLocalAs();
  card = {
    ...testCard(),
    securitySchemes: {
      oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: `${as.issuer}/token`, scopes: { 'agent:use': 'Use the agent' } } } } },
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
    },
    securityRequirements: [{ schemes: { oauth: { list: ['agent:use'] } } }, { schemes: { key: { list: [] } } }],
  };
});
afterAll(async () => {
  await as?.stop();
});

function token(sub: string): Promise<string> {
  return as.server.issuer.buildToken({
    expiresIn: 300,
    scopesOrTransform: (_header, payload) => Object.assign(payload, { sub, aud: A2A_AUDIENCE, scope: 'agent:use', client_id: `${sub}-app` }),
  });
}

/** The executor replies with its ctx.auth as JSON (null when undefined). */
const whoami = { execute: async (ctx: ExecutionContext) => ctx.reply(JSON.stringify(ctx.auth ?? null)) };

function agent(extra: Partial<ConstructorParameters<typeof A2aServer>[0]> = {}): A2aServer {
  return new A2aServer({
    card,
    executor: whoami,
    log: () => {},
    verifiers: { bearer: jwtVerifier({ issuer: as.issuer }, A2A_AUDIENCE, { allowLoopbackHttp: true }), apiKey: (key) => key === API_KEY },
    ...extra,
  });
}

const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

/** SendMessage on `binding` with `headers`: what the executor's reply says ctx.auth was. */
async function send(url: string, binding: 'jsonrpc' | 'rest', headers: Record<string, string>): Promise<unknown> {
  const body = userMessage('who am I?');
  const res =
    binding === 'jsonrpc'
      ? await fetch(`${url}/a2a`, {
          method: 'POST',
          headers: { ...HEADERS, ...headers },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: body }),
        })
      : await fetch(`${url}/rest/message:send`, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  const json = (await res.json()) as { result?: { message: { parts: { text: string }[] } }; message?: { parts: { text: string }[] } };
  const message = binding === 'jsonrpc' ? json.result!.message : json.message!;
  return JSON.parse(message.parts[0]!.text);
}

function expected(t: string, sub: string) {
  return {
    token: t,
    subject: sub,
    clientId: `${sub}-app`,
    scopes: ['agent:use'],
    audience: [A2A_AUDIENCE],
    expiresAt: expect.any(Number),
    claims: expect.objectContaining({ iss: as.issuer, sub, aud: A2A_AUDIENCE, scope: 'agent:use' }),
  };
}

for (const [name, target] of Object.entries(A2A_TARGETS)) {
  describe(`ctx.auth over ${name}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await target.start(agent(), {});
    });
    afterAll(async () => {
      await served?.close();
    });

    it('the verified bearer token, on both bindings; each request its own', async () => {
      const alice = await token('alice');
      const bob = await token('bob');
      expect(await send(served.url, 'jsonrpc', { authorization: `Bearer ${alice}` })).toEqual(expected(alice, 'alice'));
      expect(await send(served.url, 'rest', { authorization: `Bearer ${bob}` })).toEqual(expected(bob, 'bob'));
    });

    it('an API key (no bearer token): ctx.auth is undefined', async () => {
      expect(await send(served.url, 'jsonrpc', { 'x-api-key': API_KEY })).toBeNull();
    });
  });
}

describe("an agent's own authenticate", () => {
  it('what it returns as auth reaches the executor', async () => {
    const auth: AuthInfo = { token: 'opaque-1', subject: 'carol', scopes: ['agent:use'], audience: [], claims: { source: 'gateway' } };
    const seen: AuthRequest[] = [];
    const authenticate = (req: AuthRequest) => {
      seen.push(req);
      return req.headers['authorization'] === 'Bearer opaque-1' ? { ok: true as const, auth } : { ok: false as const, challenge: 'Bearer' };
    };
    const served = await A2A_TARGETS['listenA2aHttp']!.start(agent({ http: { authenticate } }), {});
    try {
      expect(await send(served.url, 'rest', { authorization: 'Bearer opaque-1' })).toEqual(auth);
      expect(seen.length).toBe(1);
    } finally {
      await served.close();
    }
  });
});
