/**
 * The OAuth client end to end (its flow and its bad input): our McpClient over HttpChannel with an
 * OAuthClient, against our protected MCP server (auth/resource-server.ts) and a real authorization server on
 * loopback (oauth2-mock-server). Authorization code with PKCE and the resource indicator, step-up to the scope
 * a method needs, refresh of an expired token; and the refusals: a state mismatch, http where https is
 * required, metadata whose issuer is not the one asked for (no normalization), and a token never sent to a
 * URL outside the resource it was granted for.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, MemoryAuthStore, OAuthClient, type OAuthClientOptions } from '../../runtime/auth/index.ts';
import { McpClient } from '../../runtime/mcp/client/client.ts';
import { HttpChannel } from '../../runtime/mcp/client/channels.ts';
import { headlessBrowser } from './headless-browser.ts';
import { startLocalAs, startProtectedServer, type LocalAs } from './local-as.ts';

let as: LocalAs;
let mcp: Awaited<ReturnType<typeof startProtectedServer>>;
let slashed: Awaited<ReturnType<typeof startProtectedServer>>;
/** A plain server that answers whether a request carried an Authorization header. */
let echo: Server;
let echoUrl: string;
let hops: string[] = [];

beforeAll(async () => {
  as = await startLocalAs();
  const protection = {
    verify: { jwt: { issuer: as.issuer } },
    requiredScopes: ['mcp:read'],
    scopesSupported: ['mcp:read'],
    methodScopes: { 'tools/call': ['mcp:tools'] },
  };
  mcp = await startProtectedServer({ ...protection, authorizationServers: [as.issuer] });
  // The same authorization server, listed with a trailing slash: RFC 8414 §3.3 wants the issuer as listed, exactly.
  slashed = await startProtectedServer({ ...protection, authorizationServers: [`${as.issuer}/`] });
  echo = createServer((req, res) => res.end(JSON.stringify({ authorization: req.headers.authorization !== undefined })));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}/other`;
});
afterAll(async () => {
  await mcp?.http.close();
  await slashed?.http.close();
  await new Promise((resolve) => echo?.close(resolve));
  await as?.stop();
});

function oauth(extra: Partial<OAuthClientOptions> = {}): OAuthClient {
  return new OAuthClient({
    client: { client_id: 'wiregen-e2e' },
    redirectUri: 'http://127.0.0.1:5599/callback',
    authorize: headlessBrowser(fetch, { onHop: (at) => hops.push(at) }),
    allowLoopbackHttp: true,
    ...extra,
  });
}

function mcpClient(url: string, auth: OAuthClient): McpClient {
  return new McpClient(new HttpChannel(url, { auth }), { clientInfo: { name: 'e2e', version: '1.0.0' }, timeoutMs: 20_000 });
}

/** The AuthError a promise rejects with (the McpClient wraps it as its cause). */
async function authError(p: Promise<unknown>): Promise<AuthError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  const cause = err instanceof AuthError ? err : (err as { cause?: unknown } | undefined)?.cause;
  if (!(cause instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(err)}`);
  return cause;
}

describe('authorization code, step-up and refresh against a real authorization server', () => {
  const store = new MemoryAuthStore();
  const auth = oauth({ store });
  let client: McpClient;

  it('connects: 401 → resource metadata → authorization server metadata → code with PKCE → token for this resource', async () => {
    hops = [];
    const before = as.tokenRequests();
    client = mcpClient(mcp.url, auth);
    await client.connect();
    expect(client.era).toBe('stateless');
    expect(hops).toEqual([`${as.issuer}/authorize`]);
    expect(as.tokenRequests() - before).toBe(1);
    expect(as.resources().at(-1)).toBe(mcp.url);
    expect((await store.getGrant(mcp.url))?.scope).toBe('mcp:read');
  });

  it('a method that needs more scope: 403 insufficient_scope → re-authorized for the union, then served', async () => {
    hops = [];
    const result = await client.call('tools/call', { name: 'echo', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echoed' }] });
    expect(hops).toHaveLength(1);
    expect((await store.getGrant(mcp.url))?.scope).toBe('mcp:read mcp:tools');
  });

  it('an expired access token is refreshed with its refresh token, without the browser', async () => {
    const grant = (await store.getGrant(mcp.url))!;
    expect(grant.refreshToken).toBeDefined();
    await store.setGrant(mcp.url, { ...grant, expiresAt: Date.now() - 1 });
    hops = [];
    const before = as.tokenRequests();
    await client.call('tools/list');
    expect(hops).toEqual([]);
    expect(as.tokenRequests() - before).toBe(1);
    // A new grant (the JWT may be byte-identical when minted within the same second: same claims).
    expect((await store.getGrant(mcp.url))!.expiresAt).toBeGreaterThan(Date.now() + 60_000);
  });

  it('the token goes to the resource it was granted for, never to another URL', async () => {
    const res = await auth.fetch(echoUrl);
    expect(await res.json()).toEqual({ authorization: false });
  });
});

describe('refusals, each naming its check, with no token request made', () => {
  it('a state that is not the one sent: state-mismatch', async () => {
    const browser = headlessBrowser();
    const tampering = oauth({
      authorize: async (url, context) => {
        const back = new URL(await browser(url, context));
        back.searchParams.set('state', 'forged');
        return back;
      },
    });
    const before = as.tokenRequests();
    const err = await authError(mcpClient(mcp.url, tampering).connect());
    expect([err.check, err.message]).toEqual(['state-mismatch', 'authorization response: unexpected "state" response parameter value']);
    expect(as.tokenRequests()).toBe(before);
  });

  it('http to an authorization server when https is required: insecure-endpoint', async () => {
    const err = await authError(mcpClient(mcp.url, oauth({ allowLoopbackHttp: false })).connect());
    expect(err.check).toBe('insecure-endpoint');
    expect(err.message).toMatch(/^resource metadata URL http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp is not https$/);
  });

  it('metadata whose issuer differs from the listed one only by a trailing slash: issuer-mismatch', async () => {
    const before = as.tokenRequests();
    const err = await authError(mcpClient(slashed.url, oauth()).connect());
    expect(err.check).toBe('issuer-mismatch');
    expect(err.message).toBe(
      `authorization server metadata ${as.issuer}/.well-known/openid-configuration: "issuer" "${as.issuer}" is not ${as.issuer}/`,
    );
    expect(as.tokenRequests()).toBe(before);
  });

  it('without auth, a 401 is an error naming the challenge', async () => {
    const plain = new McpClient(new HttpChannel(mcp.url), { clientInfo: { name: 'e2e', version: '1.0.0' } });
    await expect(plain.connect()).rejects.toThrow(
      `HTTP 401 from ${mcp.url}: WWW-Authenticate: Bearer resource_metadata="${mcp.resource.metadataUrl}", scope="mcp:read"`,
    );
  });
});
