/**
 * Scopes declared per tool, resource, resource template and prompt (`requiredScopes`: in a spec file, in
 * code-first, or by the `McpServerOptions.requiredScopes` hook), checked over Streamable HTTP before the
 * request is dispatched. A token that lacks one gets 403 with the challenge the MCP authorization spec
 * shows (https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-challenge-handling:
 * `Bearer error="insufficient_scope", scope="…", resource_metadata="…", error_description="…"`), whose scope
 * is every scope the request needs (RFC 6750 §3.1), and whose resource_metadata is the RFC 9728 §3.1
 * well-known URL of the resource. A token with it is served. Lists still show every item.
 * Tokens are minted by a real authorization server on loopback (local-as.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { loadSpec } from '../../generator/spec/load.ts';
import { protectedResource, type ProtectedResourceOptions } from '../../runtime/auth/index.ts';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { catalogServerOptions } from '../../runtime/mcp/catalog/catalog.ts';
import { DefinitionError, mcpServer } from '../../runtime/mcp/catalog/code-first.ts';
import type { CatalogSpec } from '../../runtime/mcp/catalog/types.ts';
import { listenMcpHttp, type RunningHttpServer } from '../../runtime/mcp/http/handler.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { INIT, rpc } from '../adapters/mcp-fixture.ts';
import { call, JSON_HEADERS, send } from '../helpers/http-client.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';
import { ROOT } from '../helpers/project.ts';
import { startLocalAs, type LocalAs } from './local-as.ts';

const RESOURCE = 'https://notes.example.test/mcp';
/** RFC 9728 §3.1: the well-known path inserted between the host and the resource's path. */
const METADATA = 'https://notes.example.test/.well-known/oauth-protected-resource/mcp';

/** The challenge of the MCP authorization spec's scope challenge example, for `scope` and its description. */
const insufficient = (scope: string, description: string) =>
  `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${METADATA}", error_description="${description}"`;

let as: LocalAs;
let dir: string;
const running: RunningHttpServer[] = [];
beforeAll(async () => {
  as = await startLocalAs();
  dir = mkdtempSync(join(tmpdir(), 'wiregen-scopes-'));
});
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await as?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function token(scope: string): Promise<string> {
  return as.server.issuer.buildToken({
    expiresIn: 300,
    scopesOrTransform: (_header, payload) => Object.assign(payload, { sub: 'alice', aud: RESOURCE, scope }),
  });
}
const bearer = async (scope: string) => ({ authorization: `Bearer ${await token(scope)}` });

async function serve(server: McpServer, extra: Partial<ProtectedResourceOptions> = {}): Promise<string> {
  const authorization = protectedResource({
    resource: RESOURCE,
    authorizationServers: [as.issuer],
    verify: { jwt: { issuer: as.issuer } },
    allowLoopbackHttp: true,
    ...extra,
  });
  const r = await listenMcpHttp(server, { authorization });
  running.push(r);
  return r.url;
}

/** The notes catalog every way of writing it declares: write_note needs notes:write, reading needs notes:read. */
const NOTES_SPEC = `
name: notes
main: ./notes.ts
serverInfo: { name: notes, version: 1.0.0 }
capabilities:
  handshake: { tools: {}, resources: {}, prompts: {} }
  stateless: { tools: {}, resources: {}, prompts: {} }
tools:
  - name: write_note
    inputSchema: { type: object }
    requiredScopes: [notes:write]
  - name: ping_notes
    inputSchema: { type: object }
resources:
  - uri: notes://all
    name: all notes
    requiredScopes: [notes:read]
resourceTemplates:
  - uriTemplate: notes://{id}
    name: one note
    requiredScopes: [notes:read]
prompts:
  - name: summarize
    requiredScopes: [notes:read]
`;

const BEHAVIOURS = {
  tools: { write_note: () => 'written', ping_notes: () => 'pong' },
  resources: { 'notes://all': () => 'n1\nn2' },
  resourceTemplates: { 'notes://{id}': (vars: never) => `note ${(vars as { id: string }).id}` },
  prompts: { summarize: () => 'Summarize my notes' },
};

/** What each way of declaring the scopes must answer: the same 403s and the same successes. */
function scopeSuite(start: () => Promise<string>) {
  let url: string;
  beforeAll(async () => {
    url = await start();
  });

  it('a tool: 403 with the exact challenge without its scope, served with it; a tool without requirements for any token', async () => {
    const read = await bearer('notes:read');
    const refused = await call(url, 'tools/call', { name: 'write_note', arguments: {} }, { headers: read });
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toBe(insufficient('notes:write', 'tools/call needs scope notes:write'));
    expect(refused.json).toEqual({ error: 'insufficient_scope', error_description: 'tools/call needs scope notes:write' });
    const allowed = await call(url, 'tools/call', { name: 'write_note', arguments: {} }, { headers: await bearer('notes:read notes:write') });
    expect(allowed.status).toBe(200);
    expect(allowed.json?.['result']).toMatchObject({ content: [{ type: 'text', text: 'written' }] });
    expect((await call(url, 'tools/call', { name: 'ping_notes', arguments: {} }, { headers: await bearer('') })).status).toBe(200);
  });

  it('a resource, a resource template and a prompt: 403 naming notes:read without it, served with it', async () => {
    const none = await bearer('other');
    const read = await bearer('notes:read');
    for (const [method, params] of [
      ['resources/read', { uri: 'notes://all' }],
      ['resources/read', { uri: 'notes://42' }],
      ['prompts/get', { name: 'summarize' }],
    ] as const) {
      const refused = await call(url, method, params, { headers: none });
      expect([method, refused.status, refused.headers['www-authenticate']]).toEqual([
        method,
        403,
        insufficient('notes:read', `${method} needs scope notes:read`),
      ]);
      expect((await call(url, method, params, { headers: read })).status).toBe(200);
    }
  });

  it('lists show every item to every caller, without the spec-only field', async () => {
    const listed = await call(url, 'tools/list', {}, { headers: await bearer('') });
    const tools = (listed.json!['result'] as { tools: JsonObject[] }).tools;
    expect(tools.map((t) => t['name'])).toEqual(['write_note', 'ping_notes']);
    expect(tools.some((t) => 'requiredScopes' in t)).toBe(false);
    const resources = await call(url, 'resources/list', {}, { headers: await bearer('') });
    expect((resources.json!['result'] as { resources: JsonObject[] }).resources).toEqual([{ uri: 'notes://all', name: 'all notes' }]);
  });
}

describe('a spec file', () => {
  scopeSuite(async () => {
    const file = join(dir, 'notes.yaml');
    writeFileSync(file, NOTES_SPEC);
    const loaded = await loadSpec(createContext({ root: ROOT }), file);
    // What a generated module does with the spec it embeds: a catalog served by catalogServerOptions.
    const spec = loaded.spec as unknown as CatalogSpec;
    return serve(new McpServer(catalogServerOptions({ spec, behaviours: BEHAVIOURS, validators: {} }, { log: () => {} })));
  });

  it('a scope that is not an RFC 6749 scope-token is refused, naming the pointer', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, NOTES_SPEC.replace('requiredScopes: [notes:write]', 'requiredScopes: ["notes write"]'));
    await expect(loadSpec(createContext({ root: ROOT }), file)).rejects.toThrow(/\/tools\/0\/requiredScopes\/0/);
  });
});

describe('code-first', () => {
  const build = () =>
    mcpServer({ name: 'notes', version: '1.0.0' })
      .tool('write_note', { requiredScopes: ['notes:write'] }, () => 'written')
      .tool('ping_notes', {}, () => 'pong')
      .resource('notes://all', { name: 'all notes', requiredScopes: ['notes:read'] }, () => 'n1\nn2')
      .resource('notes://{id}', { name: 'one note', requiredScopes: ['notes:read'] }, ({ id }) => `note ${id}`)
      .prompt('summarize', { requiredScopes: ['notes:read'] }, () => 'Summarize my notes');
  scopeSuite(async () => serve(await build().build({ log: () => {} })));

  it('a scope that is not an RFC 6749 scope-token: a DefinitionError line naming the item and pointer', async () => {
    const bad = mcpServer({ name: 'notes', version: '1.0.0' }).tool('write_note', { requiredScopes: ['notes "write"'] }, () => 'x');
    const err = await bad.definition().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DefinitionError);
    expect((err as DefinitionError).problems).toEqual([
      'tool write_note: /requiredScopes/0: "notes \\"write\\"" is not an OAuth scope (RFC 6749 §3.3)',
    ]);
  });
});

describe('the requiredScopes hook of a handler-style server', () => {
  const hooked = () =>
    new McpServer({
      serverInfo: SERVER_INFO,
      log: () => {},
      capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
      handlers: { 'tools/call': (params) => ({ content: [{ type: 'text', text: `called ${params.name}` }] }) },
      requiredScopes: (method, params) => (method === 'tools/call' && params['name'] === 'write_note' ? ['notes:write'] : undefined),
    });

  it('2026-07-28: 403 without the scope, served with it', async () => {
    const url = await serve(hooked());
    const refused = await call(url, 'tools/call', { name: 'write_note' }, { headers: await bearer('notes:read') });
    expect([refused.status, refused.headers['www-authenticate']]).toEqual([403, insufficient('notes:write', 'tools/call needs scope notes:write')]);
    expect((await call(url, 'tools/call', { name: 'write_note' }, { headers: await bearer('notes:write') })).status).toBe(200);
  });

  it('a handshake-era session: the POST of a call lacking the scope is refused the same way', async () => {
    const url = await serve(hooked());
    const headers = { ...JSON_HEADERS, ...(await bearer('notes:read')) };
    const init = await send(url, { method: 'POST', headers, body: rpc(1, 'initialize', INIT) });
    const session = { ...headers, 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': INIT.protocolVersion };
    await send(url, { method: 'POST', headers: session, body: rpc(undefined, 'notifications/initialized') });
    const refused = await send(url, { method: 'POST', headers: session, body: rpc(2, 'tools/call', { name: 'write_note' }) });
    expect([refused.status, refused.headers['www-authenticate']]).toEqual([403, insufficient('notes:write', 'tools/call needs scope notes:write')]);
    const other = await send(url, { method: 'POST', headers: session, body: rpc(3, 'tools/call', { name: 'other' }) });
    expect(other.status).toBe(200);
  });

  it('the challenge names every scope the request needs: the resource’s, the method’s and the tool’s', async () => {
    const url = await serve(hooked(), { requiredScopes: ['mcp'], methodScopes: { 'tools/call': ['mcp:tools'] } });
    const refused = await call(url, 'tools/call', { name: 'write_note' }, { headers: await bearer('mcp mcp:tools') });
    expect([refused.status, refused.headers['www-authenticate']]).toEqual([
      403,
      insufficient('mcp mcp:tools notes:write', 'tools/call needs scope mcp mcp:tools notes:write'),
    ]);
  });

  it('wiregen serve --http without --auth of a server that declares scopes: one line, exit 2', () => {
    const module = join(dir, 'scoped.mts');
    writeFileSync(
      module,
      `import { mcpServer } from ${JSON.stringify(join(ROOT, 'runtime/mcp/index.ts'))};\n` +
        `export default mcpServer({ name: 'n', version: '1' }).tool('w', { requiredScopes: ['notes:write'] }, () => 'ok');\n`,
    );
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'wiregen.mjs'), 'serve', module, '--http', '0'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: '',
      timeout: 60_000,
    });
    expect([r.status, r.stderr.trim()]).toEqual([
      2,
      'wiregen serve: McpServerOptions.requiredScopes needs McpHttpOptions.authorization to check tokens (protectedResource of @wiregen/runtime/auth; wiregen serve --auth)',
    ]);
  });

  it('a scope requirement with nothing to check tokens: the HTTP server does not start', async () => {
    await expect(listenMcpHttp(hooked())).rejects.toThrow(
      'McpServerOptions.requiredScopes needs McpHttpOptions.authorization to check tokens (protectedResource of @wiregen/runtime/auth; wiregen serve --auth)',
    );
  });
});
