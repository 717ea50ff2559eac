/**
 * A2A security schemes: an agent whose card requires OAuth 2 client credentials (scope
 * `agent:use`) or an API key enforces that on both bindings through `a2aAuthenticate` (401 with the
 * `Bearer realm=…` challenge the deployer kit uses); our A2A client reads the card and presents what it asks
 * (`connect(url, { auth })`, or `a2aClientAuth` as a transport's fetch). Tokens come from a real authorization
 * server on loopback (oauth2-mock-server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCard } from '../../generated/a2a-1.0/index.ts';
import { Client } from '../../generated/a2a-1.0/index.ts';
import { connect, restTransport } from '../../runtime/a2a/client.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { parseChallenges } from '../../runtime/auth/challenge.ts';
import { a2aAuthenticate, a2aClientAuth, AuthError, jwtVerifier } from '../../runtime/auth/index.ts';
import { testCard } from '../helpers/a2a-server.ts';
import { A2A_AUDIENCE, freePort, startLocalAs, type LocalAs } from './local-as.ts';

let as: LocalAs;
let agent: RunningA2aServer;
let card: AgentCard;
let base: string;
const API_KEY = 'k-1234';

beforeAll(async () => {
  as = await startLocalAs();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  card = {
    ...testCard(),
    supportedInterfaces: [
      { url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    securitySchemes: {
      oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: `${as.issuer}/token`, scopes: { 'agent:use': 'Use the agent' } } } } },
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
    },
    securityRequirements: [{ schemes: { oauth: { list: ['agent:use'] } } }, { schemes: { key: { list: [] } } }],
  };
  const authenticate = a2aAuthenticate(card, {
    bearer: jwtVerifier({ issuer: as.issuer }, A2A_AUDIENCE, { allowLoopbackHttp: true }),
    apiKey: (key) => key === API_KEY,
  });
  agent = await listenA2aHttp(new A2aServer({ card, executor: { execute: async () => {} }, log: () => {} }), {
    port,
    host: '127.0.0.1',
    authenticate,
  });
});
afterAll(async () => {
  await agent?.close();
  await as?.stop();
});

const rpc = (headers: Record<string, string> = {}) =>
  fetch(`${base}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'none' } }),
  });

describe('the agent enforces its card', () => {
  it('no credentials: 401 on both bindings with the Bearer realm challenge and the scope; the card stays public', async () => {
    for (const res of [await rpc(), await fetch(`${base}/rest/tasks/none`, { headers: { 'a2a-version': '1.0' } })]) {
      expect(res.status).toBe(401);
      expect(parseChallenges(res.headers.get('www-authenticate'))).toEqual([
        { scheme: 'bearer', params: { realm: 'Test agent', scope: 'agent:use' } },
      ]);
    }
    expect((await fetch(`${base}/.well-known/agent-card.json`)).status).toBe(200);
  });

  it('a wrong API key, or a token without the scope: refused with the error named', async () => {
    const key = parseChallenges((await rpc({ 'x-api-key': 'wrong' })).headers.get('www-authenticate'))[0]!;
    expect(key.params).toMatchObject({ error: 'invalid_token', error_description: 'the API key for key is not valid' });
    const narrow = await as.server.issuer.buildToken({ scopesOrTransform: (_h, p) => Object.assign(p, { aud: A2A_AUDIENCE, scope: 'other' }) });
    const scoped = parseChallenges((await rpc({ authorization: `Bearer ${narrow}` })).headers.get('www-authenticate'))[0]!;
    expect(scoped.params).toMatchObject({ error: 'insufficient_scope', error_description: 'the token lacks scope agent:use' });
    const foreign = await as.server.issuer.buildToken({ scopesOrTransform: (_h, p) => Object.assign(p, { aud: 'urn:other', scope: 'agent:use' }) });
    expect(
      parseChallenges((await rpc({ authorization: `Bearer ${foreign}` })).headers.get('www-authenticate'))[0]!.params['error_description'],
    ).toMatch(/another audience/);
  });
});

describe('the client honours the card', () => {
  it('OAuth 2 client credentials: connect() reads the card, gets a token at its tokenUrl with the scope, and is let in', async () => {
    const before = as.tokenRequests();
    const { client } = await connect(base, {
      auth: { oauth2: { client_id: 'agent-client', client_secret: 'agent-secret' }, allowLoopbackHttp: true },
    });
    // Past authentication: the agent itself answers (no such task).
    await expect(client.getTask({ id: 'none' })).rejects.toMatchObject({ code: -32001 });
    await expect(client.getTask({ id: 'none' })).rejects.toMatchObject({ code: -32001 });
    expect(as.tokenRequests() - before).toBe(1);
  });

  it('an API key in the header the card names, on the HTTP+JSON binding too', async () => {
    const rest = new Client(restTransport(`${base}/rest`, { fetch: a2aClientAuth(card, { apiKey: { key: API_KEY } }).fetch }));
    await expect(rest.getTask({ id: 'none' })).rejects.toMatchObject({
      message: 'TaskNotFoundError: Task not found',
      agentMessage: 'Task not found',
      code: -32001,
      status: 404,
    });
  });

  it('no credentials for any requirement: a configuration error naming them, before any request', () => {
    expect(() => a2aClientAuth(card, { bearer: undefined })).toThrow(AuthError);
    expect(() => a2aClientAuth(card, {})).toThrow('agent card Test agent: no credentials for any of its security requirements (oauth, key)');
  });
});
