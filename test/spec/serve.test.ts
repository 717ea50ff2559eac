/**
 * `wiregen serve <target>` on a user's project: a spec (its `main`), a TypeScript module, a JavaScript module
 * exporting a hand-built McpServer, its handler sets and --notifications, over stdio and HTTP with the
 * neutral ready line; and how a `.ts` target is loaded when Node cannot (tsx, or a one-line error).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importModule } from '../../generator/serve/target.ts';
import { CliError } from '../../generator/commands/command.ts';
import { ROOT } from '../helpers/project.ts';
import { startServer, type StdioServer } from '../helpers/stdio-server.ts';
import { CALC, userProject } from './project.ts';

const SERVER = `import { createServer } from './generated/index.js';
const behaviours = {
  tools: { add: ({ a, b }) => ({ sum: a + b }), shout: ({ text }) => text.toUpperCase() },
  resources: { 'docs://readme': () => '# calc' },
  resourceTemplates: { 'docs://page/{n}': ({ n }) => 'page ' + n },
  prompts: { greet: ({ name }) => 'Hello, ' + name },
};
export default createServer(behaviours);
export const handlerSets = { plus: createServer({ ...behaviours, tools: { ...behaviours.tools, add: ({ a, b }) => ({ sum: a + b + 100 }) } }) };
`;

/** An McpServer written by hand, in JavaScript: one tool. */
const HAND_MADE = `import { McpServer } from '@wiregen/runtime/mcp';
export default new McpServer({
  serverInfo: { name: 'hand-made', version: '0.0.1' },
  capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
  handlers: { 'tools/list': () => ({ tools: [] }) },
});
`;

const project = userProject(
  { 'server.yaml': `${CALC}main: ./src/server.ts\n`, 'src/server.ts': SERVER, 'hand-made.mjs': HAND_MADE },
  { nodeModules: true },
);
beforeAll(async () => {
  expect((await project.cli(['generate', '--spec', 'server.yaml', '--out', 'src/generated'])).code).toBe(0);
});
afterAll(() => project.dispose());

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

function serve(argv: string[]): StdioServer {
  return startServer({ command: [process.execPath, join(ROOT, 'bin/wiregen.mjs'), 'serve', ...argv], cwd: project.root });
}

async function next(child: StdioServer): Promise<any> {
  const line = await child.nextLine(30_000);
  if (line.kind !== 'line') throw new Error(`no line (${line.kind}): ${child.stderr()}`);
  return JSON.parse(line.line);
}

async function call(child: StdioServer, id: number, method: string, params: Record<string, unknown>): Promise<any> {
  child.sendJson({ jsonrpc: '2.0', id, method, params });
  return next(child);
}

describe('wiregen serve on a user project', () => {
  it('a TypeScript module and its handler set, with --notifications, in the handshake era', async () => {
    const child = serve(['src/server.ts', '--stdio', '--handlers', 'plus', '--notifications']);
    try {
      const init = await call(child, 1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
      // The spec's sections, each with the flags of the list changes the transport pushes (resource
      // subscriptions are offered to 2026-07-28 clients only, as the reference Golden Server does).
      expect(init.result.capabilities).toEqual({
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
      });
      child.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const sum = await call(child, 2, 'tools/call', { name: 'add', arguments: { a: 1, b: 2 } });
      expect(sum.result.structuredContent).toEqual({ sum: 103 });
      expect(await child.close()).toMatchObject({ code: 0, rest: [] });
    } finally {
      child.kill();
    }
  });

  it('a spec over HTTP: the neutral ready line, then Streamable HTTP at /mcp', async () => {
    const child = serve(['server.yaml', '--http', '0', '--exit-on-stdin-close']);
    try {
      const ready = await next(child);
      expect(Object.keys(ready)).toEqual(['ready', 'url']);
      expect(ready.ready).toBe(true);
      expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: META } };
      const res = await fetch(ready.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'add',
        },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).result.structuredContent).toEqual({ sum: 5 });
      expect(await child.close()).toMatchObject({ code: 0 });
    } finally {
      child.kill();
    }
  });

  it('a JavaScript module whose default export is an McpServer built by hand; one stderr line says it waits', async () => {
    const child = serve(['hand-made.mjs', '--stdio']);
    try {
      const list = await call(child, 1, 'tools/list', { _meta: META });
      expect(list.result.tools).toEqual([]);
      expect(list.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'hand-made', version: '0.0.1' });
      expect(await child.close()).toMatchObject({ code: 0, rest: [] });
      // What `npm start` of a stdio server shows a person at a terminal (stdout is the client's alone).
      expect(child.stderr()).toBe('wiregen serve: hand-made.mjs serves MCP on stdio: waiting for a client on stdin (stop: close stdin, or Ctrl-C)\n');
    } finally {
      child.kill();
    }
  });
});

describe('a .ts target Node cannot load', () => {
  const unknownExtension = () => Promise.reject(Object.assign(new TypeError('Unknown file extension ".ts"'), { code: 'ERR_UNKNOWN_FILE_EXTENSION' }));

  it('without tsx: one line saying to install tsx or serve the build', async () => {
    const failed = await importModule('/x/src/server.ts', 'src/server.ts', async () => false, unknownExtension).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CliError);
    expect((failed as CliError).lines).toEqual([
      'src/server.ts: a TypeScript module: install tsx to serve it (npm install --save-dev tsx), or build it and serve the .js',
    ]);
  });

  it('with tsx: registered, then the module is imported again under a new URL', async () => {
    const urls: string[] = [];
    let registered = false;
    const importer = (href: string) => (urls.push(href), registered ? Promise.resolve({ default: 'module' }) : unknownExtension());
    const mod = await importModule('/x/src/server.ts', 'src/server.ts', async () => (registered = true), importer);
    expect(mod).toEqual({ default: 'module' });
    expect(urls).toEqual(['file:///x/src/server.ts', 'file:///x/src/server.ts?tsx']);
  });

  it('a .js module failing the same way is not retried: one line naming it', async () => {
    let asked = false;
    const failed = await importModule('/x/a.js', 'a.js', async () => (asked = true), unknownExtension, '/x').catch((e: unknown) => e);
    expect(asked).toBe(false);
    expect(failed).toBeInstanceOf(CliError);
    expect((failed as CliError).lines).toEqual([
      'a.js: TypeError: Unknown file extension ".ts" (thrown while loading a.js; WIREGEN_DEBUG=1 prints the stack)',
    ]);
  });
});
