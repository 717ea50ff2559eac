/**
 * `wiregen serve` as a user's production entry point (`npm start` under nohup, docker, systemd): over HTTP it
 * keeps serving with stdin closed, stops gracefully on SIGTERM (the request in flight answered, exit 0) within
 * --shutdown-timeout, listens on --host with the Host check --allowed-host gives; and a module that throws
 * while it loads or while its server is built is one line naming it, exit 2 (its stack with WIREGEN_DEBUG=1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { userProject } from './project.ts';

/** A code-first server with a tool that takes `ms` milliseconds. */
const SLOW = `import { mcpServer } from '@wiregen/runtime/mcp';

export default await mcpServer({ name: 'slow', version: '1.0.0' }).tool(
  'wait',
  { input: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] } },
  async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return 'waited ' + ms + ' ms';
  },
).build();
`;

const DUPLICATE = `import { mcpServer } from '@wiregen/runtime/mcp';

export default mcpServer({ name: 'dup', version: '1.0.0' })
  .tool('a', { input: { type: 'object' } }, () => 'a')
  .tool('a', { input: { type: 'object' } }, () => 'a');
`;

const THROWS = `const port = Number('x');
if (Number.isNaN(port)) throw new RangeError('PORT is not a number');
export default {};
`;

/** A nested schema ajv cannot compile: found when serve builds the server (the builder is the default export). */
const BAD_SCHEMA = `import { mcpServer } from '@wiregen/runtime/mcp';

export default mcpServer({ name: 'bad', version: '1.0.0' }).tool(
  'x',
  { input: { type: 'object', properties: { n: { type: 'nonsense' } } } },
  () => 'x',
);
`;

/** TypeScript that does not compile (tsx loads the module). */
const SYNTAX = `const port: number = ;
export default {};
`;

const project = userProject(
  {
    'slow.mjs': SLOW,
    'builder.mjs': SLOW.replace('export default await', 'export default').replace(').build();', ');'),
    'dup.mjs': DUPLICATE,
    'throws.mjs': THROWS,
    'bad-schema.mjs': BAD_SCHEMA,
    'syntax.ts': SYNTAX,
  },
  { nodeModules: true },
);
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  project.dispose();
});

interface Served {
  readonly child: ChildProcess;
  /** The ready line's URL (rejects if the process exits first). */
  readonly ready: Promise<string>;
  readonly exit: Promise<number | null>;
  stderr(): string;
}

/** `wiregen serve <argv>` in the project, stdin as a daemon has it (/dev/null) unless `stdin` says otherwise. */
function serve(argv: readonly string[], options: { stdin?: 'ignore' | 'pipe'; env?: NodeJS.ProcessEnv } = {}): Served {
  const child = spawn(process.execPath, [join(ROOT, 'bin/wiregen.mjs'), 'serve', ...argv], {
    cwd: project.root,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  children.push(child);
  let err = '';
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    void exit.then((code) => reject(new Error(`serve exited ${code} before it was ready: ${err}`)));
  });
  // A test of a failing start never awaits the ready line.
  ready.catch(() => {});
  return { child, ready, exit, stderr: () => err };
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 tools/call over node:http (which lets the test choose the Host header). */
function call(url: string, name: string, args: object, host?: string): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: META } });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
          ...(host ? { host } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('wiregen serve --http as a long-running process', () => {
  it('keeps serving with stdin closed; SIGTERM answers the call in flight, then exits 0', async () => {
    const server = serve(['slow.mjs', '--http', '0']);
    const url = await server.ready;
    // stdin is /dev/null: it ended at once, and the server is still there.
    await sleep(500);
    expect(server.child.exitCode).toBe(null);
    expect((await call(url, 'wait', { ms: 0 })).body.result.content).toEqual([{ type: 'text', text: 'waited 0 ms' }]);
    const slow = call(url, 'wait', { ms: 1500 });
    await sleep(500);
    server.child.kill('SIGTERM');
    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(answered.body.result.content).toEqual([{ type: 'text', text: 'waited 1500 ms' }]);
    expect(await server.exit).toBe(0);
    expect(server.stderr()).toContain('wiregen serve: SIGTERM: stopping (1 request(s) in flight; waiting up to 5000 ms)');
    // Stopped: nothing listens there any more.
    await expect(call(url, 'wait', { ms: 0 })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('--shutdown-timeout bounds the wait: a call still running then is cut, and the process exits 0', async () => {
    const server = serve(['slow.mjs', '--http', '0', '--shutdown-timeout', '300']);
    const url = await server.ready;
    const slow = call(url, 'wait', { ms: 20_000 }).catch((e: Error) => e);
    await sleep(500);
    const t0 = Date.now();
    server.child.kill('SIGINT');
    expect(await server.exit).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(await slow).toBeInstanceOf(Error);
    expect(server.stderr()).toContain('wiregen serve: 1 request(s) still running after 300 ms: closing them');
  });

  it('--exit-on-stdin-close: the harness behaviour, on request (here serving an mcpServer() builder, which serve builds)', async () => {
    const server = serve(['builder.mjs', '--http', '0', '--exit-on-stdin-close'], { stdin: 'pipe' });
    const url = await server.ready;
    expect((await call(url, 'wait', { ms: 1 })).body.result.content).toEqual([{ type: 'text', text: 'waited 1 ms' }]);
    server.child.stdin!.end();
    expect(await server.exit).toBe(0);
  });

  it('on stdio, SIGTERM (what an MCP client sends when closing stdin was not enough) stops it with exit 0', async () => {
    const server = serve(['slow.mjs', '--stdio'], { stdin: 'pipe' });
    // The stderr line says it waits for a client: it has started.
    // Up to 30 s: a loaded machine takes seconds to start a process that loads tsx.
    for (let i = 0; i < 600 && !server.stderr().includes('waiting for a client'); i++) await sleep(50);
    expect(server.stderr()).toContain('waiting for a client');
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
  });

  it('--host with --allowed-host: listens there, and the Host header must name an allowed host', async () => {
    // 127.0.0.2 is loopback on Linux but not a name the runtime treats as loopback: as a LAN address would be.
    const server = serve(['slow.mjs', '--http', '0', '--host', '127.0.0.2', '--allowed-host', 'mcp.example.com']);
    try {
      const url = await server.ready;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
      expect((await call(url, 'wait', { ms: 0 }, 'mcp.example.com')).status).toBe(200);
      expect((await call(url, 'wait', { ms: 0 }, 'evil.example.com')).status).toBe(403);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    }
  });
  it('--host off loopback without --allowed-host: the Host header is not checked, and stderr says how to check it', async () => {
    const server = serve(['slow.mjs', '--http', '0', '--host', '127.0.0.2']);
    const url = await server.ready;
    expect((await call(url, 'wait', { ms: 0 }, 'anything.example.com')).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(server.stderr()).toContain(
      'wiregen serve: listening on 127.0.0.2 with no Host check (DNS rebinding): --allowed-host <name> turns it on for the names clients use\n',
    );
  });
});

describe('a module that throws while it loads or builds: one line naming it, exit 2', () => {
  /** `wiregen serve <file> --stdio`, run to its end. */
  async function fail(file: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; lines: string[]; stderr: string }> {
    const server = serve([file, '--stdio'], { env });
    const code = await server.exit;
    return { code, lines: server.stderr().trimEnd().split('\n'), stderr: server.stderr() };
  }

  it('a tool defined twice (code-first): where, what, and the module', async () => {
    const { code, lines, stderr } = await fail('dup.mjs');
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^dup\.mjs:5:\d+: .*\ba\b.*defined twice.*\(thrown while loading dup\.mjs; WIREGEN_DEBUG=1 prints the stack\)$/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a schema that does not compile, found when the builder builds the server', async () => {
    const { code, lines } = await fail('bad-schema.mjs');
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\(thrown while building the server of bad-schema\.mjs; WIREGEN_DEBUG=1 prints the stack\)$/);
    expect(lines[0]).toMatch(/nonsense|type/);
  });

  it('a TypeScript module that does not compile: the place of its first error', async () => {
    const { code, lines } = await fail('syntax.ts');
    expect([code, lines]).toEqual([
      2,
      ['syntax.ts:1:22: TransformError: Unexpected ";" (thrown while loading syntax.ts; WIREGEN_DEBUG=1 prints the stack)'],
    ]);
  });

  it('an error of the module itself; WIREGEN_DEBUG=1 adds its stack', async () => {
    const plain = await fail('throws.mjs');
    expect([plain.code, plain.lines]).toEqual([
      2,
      ['throws.mjs:2:31: RangeError: PORT is not a number (thrown while loading throws.mjs; WIREGEN_DEBUG=1 prints the stack)'],
    ]);
    const debug = await fail('throws.mjs', { WIREGEN_DEBUG: '1' });
    expect(debug.code).toBe(2);
    expect(debug.lines[0]).toBe('throws.mjs:2:31: RangeError: PORT is not a number (thrown while loading throws.mjs)');
    expect(debug.lines[1]).toBe('RangeError: PORT is not a number');
    expect(debug.stderr).toMatch(/\n\s+at .*throws\.mjs:2:31/);
  });
});
