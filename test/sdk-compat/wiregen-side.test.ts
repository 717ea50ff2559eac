/**
 * `@wiregen/runtime/sdk` in process, where the official SDK is not the oracle: the caller's `authInfo` handed to
 * createMcpHandler's fetch reaching the factory and `ctx.http.authInfo` (as docs/serving/http.md of the SDK
 * describes it), wiregen's verified token (RequestContext.auth) mapped to the SDK's AuthInfo, the handles'
 * list-changed notifications over a transport of the SDK's shape (its InMemoryTransport), and the server files
 * of servers/ compiling against wiregen's types with the imports changed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createMcpHandler, McpServer, type AuthInfo, type McpRequestContext } from '@wiregen/runtime/sdk';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { McpServer as WireServer } from '@wiregen/runtime/mcp';
import { createLinkedPair } from '@wiregen/runtime/transports';
import { sdkAuthInfo } from '../../runtime/sdk/context.ts';
import { ROOT } from '../helpers/project.ts';

const INFO = { name: 'wiregen-side', version: '1.0.0' };

describe('createMcpHandler', () => {
  it.each(['legacy', 'auto'] as const)('hands the fetch caller’s authInfo to the factory and ctx.http.authInfo (%s client)', async (mode) => {
    const seen: McpRequestContext[] = [];
    const handler = createMcpHandler((ctx) => {
      seen.push(ctx);
      const server = new McpServer({ name: 'notes', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Name the authenticated caller' }, async (c) => ({
        content: [{ type: 'text', text: c.http?.authInfo?.clientId ?? 'anonymous' }],
      }));
      return server;
    });
    const alice: AuthInfo = { token: 't', clientId: 'alice', scopes: ['notes'] };
    const client = new Client(INFO, { versionNegotiation: { mode } });
    const url = new URL('http://127.0.0.1/mcp');
    await client.connect(
      new StreamableHTTPClientTransport(url, { fetch: (input, init) => handler.fetch(new Request(input, init), { authInfo: alice }) }),
    );
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'alice' }]);
    const call = seen.at(-1)!;
    expect(call.authInfo).toEqual(alice);
    expect(call.era).toBe(mode === 'legacy' ? 'legacy' : 'modern');
    expect(call.requestInfo).toBeInstanceOf(Request);
    await client.close();
    await handler.close();
  });
});

describe('sdkAuthInfo', () => {
  it('maps RequestContext.auth to the SDK’s AuthInfo', () => {
    const claims = { sub: 'u1', client_id: 'c1', scope: 'a b', aud: 'https://mcp.example.com', exp: 2000000000 };
    expect(
      sdkAuthInfo({
        token: 'tok',
        subject: 'u1',
        clientId: 'c1',
        scopes: ['a', 'b'],
        audience: ['https://mcp.example.com'],
        expiresAt: 2000000000,
        resource: 'https://mcp.example.com/mcp',
        claims,
      }),
    ).toEqual({
      token: 'tok',
      clientId: 'c1',
      scopes: ['a', 'b'],
      expiresAt: 2000000000,
      resource: new URL('https://mcp.example.com/mcp'),
      extra: { subject: 'u1', audience: ['https://mcp.example.com'], claims },
    });
  });
});

describe('RequestContext.auth', () => {
  it('reaches a callback as ctx.http.authInfo: the token the transport says carried the request', async () => {
    const server = new McpServer(INFO);
    server.registerTool('whoami', { description: 'Name the authenticated caller' }, async (ctx) => ({
      content: [{ type: 'text', text: `${ctx.http?.authInfo?.clientId ?? 'anonymous'} ${ctx.http?.authInfo?.scopes.join(',') ?? ''}` }],
    }));
    await server.prepare();
    const wire = new WireServer(server.wireOptions(() => server.registry));
    const [ours, theirs] = createLinkedPair();
    const auth = { token: 't', clientId: 'bob', scopes: ['notes:read'], audience: ['https://mcp.example.com'], claims: {} };
    wire.connect({ ...ours, start: (sink) => ours.start(sink), authOf: () => auth });
    const answers: unknown[] = [];
    theirs.start({ message: (text) => void answers.push(JSON.parse(text)), close: () => undefined });
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    theirs.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {}, _meta: meta } }));
    await expect.poll(() => answers.length).toBe(1);
    expect(answers[0]).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'bob notes:read' }] } });
    theirs.close();
  });
});

describe('handles over the SDK’s InMemoryTransport', () => {
  it('register, update, disable, enable and remove announce tools/list_changed and change tools/list', async () => {
    const server = new McpServer(INFO);
    const first = server.registerTool('first', { description: 'one' }, async () => ({ content: [{ type: 'text', text: '1' }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client(INFO, { versionNegotiation: { mode: 'legacy' } });
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
    await client.connect(clientSide);
    const names = async () => (await client.listTools()).tools.map((t) => `${t.name}:${t.description}`);
    expect(await names()).toEqual(['first:one']);

    const second = server.registerTool('second', { inputSchema: z.object({ n: z.number() }) }, async ({ n }) => ({
      content: [{ type: 'text', text: `${n * 2}` }],
    }));
    first.update({ description: 'uno' });
    second.disable();
    await expect.poll(() => changes).toBe(3);
    expect(await names()).toEqual(['first:uno']);
    expect(
      await client.callTool({ name: 'second', arguments: { n: 2 } }).catch((e: { code: number; message: string }) => [e.code, e.message]),
    ).toEqual([-32602, 'Tool second disabled']);
    second.enable();
    first.update({ name: 'renamed' });
    second.remove();
    await expect.poll(() => changes).toBe(6);
    expect(await names()).toEqual(['renamed:uno']);
    await client.close();
    await server.close();
  });
});

describe('types', () => {
  it('the server files compile against @wiregen/runtime/sdk with their imports changed', () => {
    const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
    const dir = mkdtempSync(join(tmpdir(), 'sdk-compat-types-'));
    try {
      const at = (p: string) => join(ROOT, p);
      const paths = Object.fromEntries(Object.entries(base.compilerOptions.paths).map(([k, v]) => [k, v.map(at)]));
      paths['@modelcontextprotocol/server'] = [at('runtime/sdk/index.ts')];
      paths['@modelcontextprotocol/server/stdio'] = [at('runtime/sdk/stdio.ts')];
      const config = {
        extends: at('tsconfig.json'),
        compilerOptions: { paths, noEmit: true, baseUrl: ROOT, typeRoots: [at('node_modules/@types')] },
        files: ['notes.ts', 'catalog-http.ts', 'interactive.ts', 'connect-stdio.ts'].map((f) => at(`test/sdk-compat/servers/${f}`)),
        include: [],
      };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      let out = '';
      try {
        execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
      } catch (err) {
        out = String((err as { stdout?: string }).stdout ?? err);
      }
      expect(out).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
