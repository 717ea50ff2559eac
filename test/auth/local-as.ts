/**
 * @module test/auth/local-as — a real authorization server on loopback for the server-side tests
 * (oauth2-mock-server: RS256-signed JWTs, its JWKS, OpenID discovery, authorization code with PKCE,
 * introspection), tuned as a deployment would be: the access token's `aud` is the RFC 8707 `resource` the
 * client asked for, and its `scope` what the authorization request asked for (the mock keeps neither on its own).
 * Plus a protected MCP server of ours in front of it.
 */
import { createServer } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';
import { protectedResource, type ProtectedResourceOptions } from '../../runtime/auth/index.ts';
import { listenMcpHttp, type RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

/** The audience of tokens asked for without a resource indicator. */
export const A2A_AUDIENCE = 'urn:wiregen:test-agent';

export interface LocalAs {
  readonly server: OAuth2Server;
  /** Its issuer identifier (`http://127.0.0.1:<port>`). */
  readonly issuer: string;
  /** How many token requests it answered. */
  tokenRequests(): number;
  /** The `resource` of each token request, in order. */
  resources(): (string | undefined)[];
  stop(): Promise<void>;
}

export async function startLocalAs(): Promise<LocalAs> {
  const server = new OAuth2Server(undefined, undefined, { endpoints: {} });
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url!.replace(/\/$/, '');
  server.issuer.url = issuer;
  const scopeOfCode = new Map<string, string>();
  const resources: (string | undefined)[] = [];
  let tokens = 0;
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { query: Record<string, string> }) => {
    const code = redirect.url.searchParams.get('code');
    if (code && req.query['scope']) scopeOfCode.set(code, req.query['scope']);
  });
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }, req: { body: Record<string, string | undefined> }) => {
    // The id_token the mock adds to a code or refresh answer (sub, aud = client_id, no amr) is left as it is.
    if (token.payload['sub'] === 'johndoe' && !('amr' in token.payload)) return;
    tokens++;
    resources.push(req.body['resource']);
    // The audience: the RFC 8707 resource asked for, else (A2A asks for none) the test agent.
    token.payload['aud'] = req.body['resource'] ?? A2A_AUDIENCE;
    const scope = req.body['code'] ? scopeOfCode.get(req.body['code']) : req.body['scope'];
    token.payload['scope'] = scope ?? '';
  });
  // The token response's `scope` says what was granted, as the token does.
  server.service.on('beforeResponse', (response: { body: Record<string, unknown> }, req: { body: Record<string, string | undefined> }) => {
    const code = req.body['code'];
    response.body['scope'] = (code ? scopeOfCode.get(code) : req.body['scope']) ?? '';
  });
  return {
    server,
    issuer,
    tokenRequests: () => tokens,
    resources: () => [...resources],
    stop: () => server.stop(),
  };
}

/** A free loopback port (the resource identifier names it before the server listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export const TOOLS: McpServerOptions = {
  serverInfo: SERVER_INFO,
  capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
  handlers: {
    'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
    'tools/call': () => ({ content: [{ type: 'text', text: 'echoed' }] }),
  },
};

/** Our MCP server at http://127.0.0.1:<port>/mcp, protected as `options` say (resource and loopback filled in). */
export async function startProtectedServer(
  options: Omit<ProtectedResourceOptions, 'resource'> & { resource?: string },
): Promise<{ http: RunningHttpServer; url: string; resource: ReturnType<typeof protectedResource> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const resource = protectedResource({ allowLoopbackHttp: true, ...options, resource: options.resource ?? url });
  const http = await listenMcpHttp(new McpServer({ log: () => {}, ...TOOLS }), { port, authorization: resource });
  return { http, url, resource };
}
