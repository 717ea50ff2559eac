/**
 * Our Streamable HTTP server as a protected resource, against a real authorization server
 * on loopback (oauth2-mock-server, test/auth/local-as.ts): the Protected Resource Metadata document (RFC 9728
 * §3), the 401 challenge pointing to it, JWT access tokens checked against the server's JWKS (issuer,
 * audience = this resource, expiry, signature), per-method scopes (403 insufficient_scope), introspected
 * opaque tokens (RFC 7662), and GET/DELETE guarded like POST. The tokens are minted by the authorization
 * server itself; the expectations come from RFC 6750 §3 and RFC 9728 §5.1, not from our own output.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChallenges } from '../../runtime/auth/challenge.ts';
import { call, statelessHeaders, statelessRequest } from '../helpers/http-client.ts';
import { startLocalAs, startProtectedServer, type LocalAs } from './local-as.ts';

let as: LocalAs;
let jwt: Awaited<ReturnType<typeof startProtectedServer>>;
let introspected: Awaited<ReturnType<typeof startProtectedServer>>;
/** What the introspection endpoint answers next. */
let introspection: Record<string, unknown> = { active: false };

beforeAll(async () => {
  as = await startLocalAs();
  jwt = await startProtectedServer({
    authorizationServers: [as.issuer],
    verify: { jwt: { issuer: as.issuer } },
    requiredScopes: ['mcp:read'],
    methodScopes: { 'tools/call': ['mcp:tools'] },
  });
  as.server.service.on('beforeIntrospect', (answer: { body: Record<string, unknown> }) => (answer.body = introspection));
  introspected = await startProtectedServer({
    authorizationServers: [as.issuer],
    verify: { introspection: { endpoint: `${as.issuer}/introspect`, clientId: 'mcp-server', clientSecret: 'mcp-server-secret' } },
  });
});
afterAll(async () => {
  await jwt?.http.close();
  await introspected?.http.close();
  await as?.stop();
});

/** A token the authorization server signs, with `claims` set (aud defaults to the JWT server's resource). */
function token(claims: Record<string, unknown> = {}, expiresIn = 300): Promise<string> {
  return as.server.issuer.buildToken({
    expiresIn,
    scopesOrTransform: (_header, payload) => Object.assign(payload, { sub: 'alice', aud: jwt.url, scope: 'mcp:read mcp:tools', ...claims }),
  });
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

/** The one challenge of a refusal, parsed. */
function challengeOf(headers: Headers | IncomingHttpHeaders) {
  const value = headers instanceof Headers ? headers.get('www-authenticate') : (headers['www-authenticate'] as string | undefined);
  const [challenge, ...rest] = parseChallenges(value);
  expect(rest).toEqual([]);
  return challenge!;
}

describe('protected resource metadata and challenges (RFC 9728)', () => {
  it('serves the metadata document at the path-based well-known URL, naming this resource and its authorization server', async () => {
    const res = await fetch(jwt.resource.metadataUrl);
    expect(new URL(jwt.resource.metadataUrl).pathname).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource: jwt.url,
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:read', 'mcp:tools'],
      bearer_methods_supported: ['header'],
    });
  });

  it('a request without a token: 401, Bearer challenge with resource_metadata and scope, and no error code (RFC 6750 §3.1)', async () => {
    const res = await call(jwt.url, 'tools/list');
    expect(res.status).toBe(401);
    const challenge = challengeOf(res.headers);
    expect(challenge).toEqual({ scheme: 'bearer', params: { resource_metadata: jwt.resource.metadataUrl, scope: 'mcp:read' } });
  });

  it('GET and DELETE (handshake-era session requests) are refused the same way', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(jwt.url, { method, headers: { 'mcp-session-id': 'x', accept: 'text/event-stream' } });
      expect([method, res.status]).toEqual([method, 401]);
      expect(challengeOf(res.headers).params['resource_metadata']).toBe(jwt.resource.metadataUrl);
    }
  });
});

describe('JWT access tokens (signature, iss, aud, exp)', () => {
  it('a token the authorization server signed for this resource is served', async () => {
    const res = await call(jwt.url, 'tools/list', {}, { headers: bearer(await token()) });
    expect(res.status).toBe(200);
    expect((res.json as { result: { tools: unknown[] } }).result.tools).toHaveLength(1);
  });

  it.each([
    ['for another audience', () => token({ aud: 'https://other.example.com/mcp' }), /another audience/],
    ['expired', () => token({}, -120), /expired/],
    ['from another issuer', () => token({ iss: 'https://evil.example.com' }), /another issuer/],
    [
      'tampered with (payload changed after signing)',
      async () => {
        const [h, p, s] = (await token()).split('.') as [string, string, string];
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
        return [h, Buffer.from(JSON.stringify({ ...claims, scope: 'mcp:read mcp:tools mcp:admin' })).toString('base64url'), s].join('.');
      },
      /signature/,
    ],
    ['not a JWT', async () => 'opaque-token-value', /not a valid JWT/],
  ])('a token %s: 401 invalid_token naming the check', async (_what, make, reason) => {
    const res = await call(jwt.url, 'tools/list', {}, { headers: bearer(await make()) });
    expect(res.status).toBe(401);
    const challenge = challengeOf(res.headers);
    expect(challenge.params['error']).toBe('invalid_token');
    expect(challenge.params['error_description']).toMatch(reason);
    expect(challenge.params['resource_metadata']).toBe(jwt.resource.metadataUrl);
  });

  it('a method with scopes of its own: 403 insufficient_scope with the scopes it needs; served once the token has them', async () => {
    const reading = await token({ scope: 'mcp:read' });
    const refused = await call(jwt.url, 'tools/call', { name: 'echo', arguments: {} }, { headers: bearer(reading) });
    expect(refused.status).toBe(403);
    expect(challengeOf(refused.headers).params).toMatchObject({ error: 'insufficient_scope', scope: 'mcp:read mcp:tools' });
    const listed = await call(jwt.url, 'tools/list', {}, { headers: bearer(reading) });
    expect(listed.status).toBe(200);
    const served = await call(jwt.url, 'tools/call', { name: 'echo', arguments: {} }, { headers: bearer(await token()) });
    expect(served.status).toBe(200);
  });

  it('a token in the query string or a Basic header is not a bearer token', async () => {
    const { body } = statelessRequest('tools/list');
    const query = await fetch(`${jwt.url}?access_token=${await token()}`, { method: 'POST', headers: statelessHeaders('tools/list'), body });
    expect(query.status).toBe(401);
    const basic = await call(jwt.url, 'tools/list', {}, { headers: { authorization: 'Basic YTpi' } });
    expect(challengeOf(basic.headers).params['error_description']).toMatch(/not a bearer token/);
  });
});

describe('opaque tokens by introspection (RFC 7662)', () => {
  it('an active token for this resource is served; an inactive one, or one for another audience, is refused', async () => {
    const exp = Math.floor(Date.now() / 1000) + 300;
    introspection = { active: true, scope: 'mcp:read', aud: introspected.url, exp, sub: 'bob' };
    expect((await call(introspected.url, 'tools/list', {}, { headers: bearer('opaque-1') })).status).toBe(200);
    introspection = { active: false };
    const inactive = await call(introspected.url, 'tools/list', {}, { headers: bearer('opaque-2') });
    expect([inactive.status, challengeOf(inactive.headers).params['error_description']]).toEqual([401, 'the token is not active (introspection)']);
    introspection = { active: true, aud: 'https://other.example.com/mcp', exp };
    const foreign = await call(introspected.url, 'tools/list', {}, { headers: bearer('opaque-3') });
    expect(challengeOf(foreign.headers).params['error_description']).toMatch(/another audience/);
  });
});
