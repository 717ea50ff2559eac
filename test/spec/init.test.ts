/**
 * `wiregen init`: a new project (an MCP server, or an A2A agent with --agent) that generates, type-checks
 * under strict consumer settings (NodeNext and Bundler resolution; `@wiregen/*` resolved to this
 * repository's sources, which the scaffold's tsconfig cannot know of) and serves.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { startServer } from '../helpers/stdio-server.ts';
import { userProject } from './project.ts';

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const version = (pkg: string) => (JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs tsc over the project with its own tsconfig.json, plus the paths to this repository's sources. */
async function typecheck(dir: string, resolution: 'NodeNext' | 'Bundler'): Promise<string> {
  const config = {
    extends: './tsconfig.json',
    compilerOptions: {
      noEmit: true,
      // Only because the paths lead to this repository's sources, which import each other with `.ts`.
      allowImportingTsExtensions: true,
      rootDir: '/',
      ...(resolution === 'Bundler' ? { module: 'ESNext', moduleResolution: 'Bundler' } : {}),
      paths: {
        '@wiregen/runtime': [join(ROOT, 'runtime/index.ts')],
        '@wiregen/runtime/*': [join(ROOT, 'runtime/*/index.ts')],
        '@wiregen/core': [join(ROOT, 'core/index.ts')],
        '@wiregen/*': [join(ROOT, 'generated/*/index.ts')],
      },
    },
  };
  writeFileSync(join(dir, 'tsconfig.check.json'), JSON.stringify(config));
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', 'tsconfig.check.json'], { cwd: dir });
    return stdout;
  } catch (err) {
    return (err as { stdout: string }).stdout || String(err);
  }
}

const server = userProject({}, { nodeModules: true });
const agent = userProject({}, { esm: false });
afterAll(() => (server.dispose(), agent.dispose()));

describe('wiregen init', () => {
  it('writes an MCP server project into a new folder, and refuses one that is not empty', async () => {
    const made = await server.cli(['init', 'calc-server']);
    expect(made).toEqual({
      code: 0,
      out: [
        'wrote calc-server/: server.yaml, src/server.ts, package.json, tsconfig.json, .gitignore',
        'next: cd calc-server && npm install && npm run build && npm start',
      ],
      err: [],
    });
    const pkg = JSON.parse(server.read('calc-server/package.json'));
    expect(pkg).toMatchObject({
      name: 'calc-server',
      type: 'module',
      scripts: {
        generate: 'wiregen generate --spec server.yaml --out src/generated',
        build: 'npm run generate && tsc',
        typecheck: 'tsc --noEmit',
        start: 'wiregen serve dist/server.js --stdio',
      },
    });
    expect(pkg.dependencies['@wiregen/runtime']).toBe(version('runtime'));
    expect(pkg.dependencies['@wiregen/mcp-2026-07-28']).toBe(version('generated/mcp-2026-07-28'));
    expect(pkg.devDependencies['wiregen']).toBe(version('generator'));
    const tsconfig = JSON.parse(server.read('calc-server/tsconfig.json')).compilerOptions;
    expect(tsconfig).toMatchObject({
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    });
    expect(tsconfig.allowImportingTsExtensions).toBeUndefined();
    // Declarations are checked too: every package's .d.ts compiles under these flags (test/consumer/).
    expect(tsconfig.skipLibCheck).toBeUndefined();
    expect(server.read('calc-server/server.yaml')).toMatch(/^name: "calc-server"$/m);

    expect(await server.cli(['init', 'calc-server'])).toEqual({
      code: 2,
      out: [],
      err: ['wiregen init: calc-server is not empty; give a new or empty folder'],
    });
    expect(await server.cli(['init', 'calc-server/package.json', '--agent'])).toEqual({
      code: 2,
      out: [],
      err: ['wiregen init: calc-server/package.json is a file; give a new or empty folder'],
    });
  });

  it('names the spec after the folder, as the spec format allows a name', async () => {
    expect((await server.cli(['init', 'My Server!'])).code).toBe(0);
    expect(server.read('My Server!/server.yaml')).toMatch(/^name: "my-server"$/m);
    expect(JSON.parse(server.read('My Server!/package.json')).name).toBe('my-server');
    const dir = server.path('My Server!');
    const { runCli } = await import('../helpers/project.ts');
    expect(await runCli(['generate', '--spec', 'server.yaml', '--out', 'src/generated', '--check'], dir)).toMatchObject({ code: 1, err: [] });
  });

  it('generates, type-checks strictly with NodeNext and Bundler resolution, and serves over stdio', async () => {
    const dir = server.path('calc-server');
    const { runCli } = await import('../helpers/project.ts');
    expect((await runCli(['generate', '--spec', 'server.yaml', '--out', 'src/generated'], dir)).code).toBe(0);
    for (const file of readdirSync(join(dir, 'src/generated')))
      expect(readFileSync(join(dir, 'src/generated', file), 'utf8')).not.toMatch(/from "\.[^"]*\.ts"/);
    expect(await typecheck(dir, 'NodeNext')).toBe('');
    expect(await typecheck(dir, 'Bundler')).toBe('');

    const child = startServer({ command: [process.execPath, join(ROOT, 'bin/wiregen.mjs'), 'serve', 'server.yaml', '--stdio'], cwd: dir });
    try {
      const next = async () => {
        const line = await child.nextLine(30_000);
        if (line.kind !== 'line') throw new Error(`no answer (${line.kind}): ${child.stderr()}`);
        return JSON.parse(line.line);
      };
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      child.sendJson({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 }, _meta: meta } });
      expect((await next()).result).toMatchObject({ content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 }, isError: false });
      child.sendJson({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'greet', arguments: { name: 'Ada' }, _meta: meta } });
      expect((await next()).result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Write a short greeting for Ada.' } }]);
      expect(await child.close()).toMatchObject({ code: 0, rest: [] });
    } finally {
      child.kill();
    }
  });

  it('--agent: an A2A agent project that generates, type-checks and answers over HTTP', async () => {
    expect((await agent.cli(['init', '--agent'])).out[0]).toBe('wrote ./: agent.yaml, src/agent.ts, package.json, tsconfig.json, .gitignore');
    expect(JSON.parse(agent.read('package.json')).dependencies['@wiregen/a2a-1.0']).toBe(version('generated/a2a-1.0'));
    agent.linkNodeModules();
    expect((await agent.cli(['generate', '--spec', 'agent.yaml', '--out', 'src/generated'])).code).toBe(0);
    expect(await typecheck(agent.root, 'NodeNext')).toBe('');

    const child = startServer({
      command: [process.execPath, join(ROOT, 'bin/wiregen.mjs'), 'serve', 'agent.yaml', '--http', '0', '--exit-on-stdin-close'],
      cwd: agent.root,
    });
    try {
      const line = await child.nextLine(30_000);
      if (line.kind !== 'line') throw new Error(`not ready (${line.kind}): ${child.stderr()}`);
      const { ready, url } = JSON.parse(line.line) as { ready: boolean; url: string };
      expect(ready).toBe(true);
      const card = (await (await fetch(`${url}/.well-known/agent-card.json`)).json()) as { name: string };
      expect(card.name).toBe(agent.root.split('/').at(-1)!.toLowerCase());
      const answer = await fetch(`${url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
        }),
      });
      const body = (await answer.json()) as { result: { message: { parts: { text: string }[] } } };
      expect(body.result.message.parts).toEqual([{ text: 'You said: hi' }]);
      expect(await child.close()).toMatchObject({ code: 0 });
    } finally {
      child.kill();
    }
  });
});
