/**
 * @module test/consumer — wiregen as another project uses it. Every workspace package is built and packed; the
 * two examples (examples/mcp-server, examples/a2a-agent) are copied outside the repository and install the
 * tarballs; their spec is generated again with the packed CLI (and must equal what the example commits);
 * `tsc` type-checks them with the strict consumer flags and no `allowImportingTsExtensions`; they run on plain
 * Node (no tsx, no loader); and the official clients call them: `@modelcontextprotocol/sdk` 1.32.2 (handshake
 * era) and `@modelcontextprotocol/client` 2.4.0 (2026-07-28 through its versionNegotiation) over stdio and
 * Streamable HTTP, and `@a2a-js/sdk` 1.3.0 for the agent.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { buildAndPack, consumerProject, installTarballs, NPM, packedFiles, run, type ConsumerProject, type Packed } from './packages.ts';
import { AGENT_BEHAVIOURS, SERVERS, STRICT_OPTIONS } from './strict-modules.ts';

const INFO = { name: 'consumer-test', version: '1.0.0' };
let packed: Packed;
const children: ChildProcess[] = [];

beforeAll(() => {
  packed = buildAndPack();
}, 300_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  packed?.dispose();
});

/** Every file of `dir` (relative), for comparing a regenerated folder with the committed one. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[relative(dir, abs)] = readFileSync(abs, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** `node <args>` in the project (plain Node: no loader, no tsx); resolves with it once it prints its ready line. */
function start(project: ConsumerProject, args: readonly string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { cwd: project.root, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited ${code}: ${err}`)));
  });
}

/** A free loopback port (for the agent, whose card names where it listens). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const tsc = (project: ConsumerProject) => project.exec(process.execPath, [project.path('node_modules/typescript/bin/tsc'), '-p', '.']);
const wiregen = (project: ConsumerProject, args: readonly string[]) =>
  project.exec(process.execPath, [project.path('node_modules/wiregen/dist/bin.js'), ...args]);

describe('the packed packages', () => {
  it('ship built JavaScript and declarations only: no TypeScript sources', () => {
    const files = packedFiles();
    expect([...files.keys()].sort()).toEqual([...packed.tarballs.keys()].sort());
    for (const [name, list] of files) {
      const sources = list.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
      expect(sources, name).toEqual([]);
      expect(list, name).toContain('package.json');
      expect(
        list.some((f) => f.startsWith('dist/') && f.endsWith('.js')),
        name,
      ).toBe(true);
    }
  });
});

describe('examples/mcp-server, installed from the tarballs', () => {
  let project: ConsumerProject;

  beforeAll(() => {
    // hono for the README's code; @types/pg for @wiregen/runtime/a2a/postgres's declarations (pg, its optional peer, has none).
    project = consumerProject('mcp-server', packed, ['hono@4', '@types/pg@8']);
  }, 300_000);

  afterAll(() => project?.dispose());

  it('generates with the packed CLI on plain Node exactly what the example commits', () => {
    const committed = tree(project.path('src/generated'));
    wiregen(project, ['generate', '--spec', 'server.yaml', '--out', 'src/generated']);
    expect(tree(project.path('src/generated'))).toEqual(committed);
  });

  it("type-checks with the strict consumer flags and builds (with the README's code, which must compile here)", () => {
    // The TypeScript blocks of the README's "Use it in your project" import what this example has: the weather
    // spec's generated module, its server, express and hono.
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Use it in your project'),
      readme.indexOf('\n## ', readme.indexOf('## Use it in your project') + 1),
    );
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    blocks.forEach((code, i) => writeFileSync(project.path(`src/readme-${i + 1}.ts`), code));
    const tsconfig = JSON.parse(readFileSync(project.path('tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
    });
    expect(tsconfig.compilerOptions).not.toHaveProperty('allowImportingTsExtensions');
    expect(tsconfig.compilerOptions).not.toHaveProperty('skipLibCheck');
    tsc(project);
  });

  it('modules generated for servers with and without each kind of item, and for agents, with every package imported, type-check strictly without skipLibCheck', () => {
    // One folder per spec (strict-modules.ts), generated in one process by the packed generator's main; one tsc
    // over all of them and a file importing every entry point of every package the project installed.
    const root = project.path('strict');
    const modules = [
      ...SERVERS.map((m) => ({ name: m.name, file: 'server.yaml', spec: m.spec, behaviours: m.behaviours })),
      ...readdirSync(join(ROOT, 'schemas/fixtures/a2a')).map((f) => ({
        name: f.replace(/\.yaml$/, ''),
        file: 'agent.yaml',
        spec: readFileSync(join(ROOT, 'schemas/fixtures/a2a', f), 'utf8'),
        behaviours: AGENT_BEHAVIOURS,
      })),
    ];
    for (const m of modules) {
      mkdirSync(join(root, m.name), { recursive: true });
      writeFileSync(join(root, m.name, m.file), m.spec);
      writeFileSync(join(root, m.name, 'behaviours.ts'), m.behaviours);
    }
    writeFileSync(
      join(root, 'generate.mjs'),
      `import { main } from 'wiregen';
for (const [dir, spec] of JSON.parse(process.argv[2])) {
  const code = await main(['generate', '--spec', spec, '--out', 'generated'], undefined, undefined, { root: dir });
  if (code !== 0) process.exit(code);
}
`,
    );
    project.exec(process.execPath, [join(root, 'generate.mjs'), JSON.stringify(modules.map((m) => [join(root, m.name), m.file]))]);
    const installed = [
      'wiregen',
      ...readdirSync(project.path('node_modules/@wiregen'))
        .map((d) => `@wiregen/${d}`)
        .sort(),
    ];
    expect(installed.sort()).toEqual([...packed.tarballs.keys()].sort());
    const entries = installed.flatMap((name) => {
      const { exports } = JSON.parse(readFileSync(project.path(`node_modules/${name}/package.json`), 'utf8')) as { exports: Record<string, unknown> };
      return Object.keys(exports)
        .filter((key) => !key.endsWith('.json'))
        .map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`));
    });
    expect(entries).toContain('@wiregen/runtime/a2a/postgres');
    writeFileSync(join(root, 'every-package.ts'), entries.map((entry, i) => `export * as entry${i} from '${entry}';\n`).join(''));
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT_OPTIONS, include: ['.'] }));
    project.exec(process.execPath, [project.path('node_modules/typescript/bin/tsc'), '-p', root]);
  });

  it('SDK 1.32.2 over stdio (handshake era): lists and calls the tools, reads, gets the prompt', async () => {
    const client = new V1Client(INFO);
    await client.connect(new V1Stdio({ command: process.execPath, args: ['dist/main.js'], cwd: project.root, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['to_fahrenheit', 'forecast']);
      const hot = await client.callTool({ name: 'to_fahrenheit', arguments: { celsius: 100 } });
      expect(hot.structuredContent).toEqual({ fahrenheit: 212 });
      const forecast = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 2 } });
      expect(forecast.content).toEqual([{ type: 'text', text: 'Oslo, day 1: sunny, 18 °C\nOslo, day 2: cloudy, 19 °C' }]);
      // A spec file's tools answer bad arguments with an isError result (SEP-1303), naming the pointer.
      const bad = await client.callTool({ name: 'to_fahrenheit', arguments: { celsius: 'hot' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('/celsius must be number');
      const stations = await client.readResource({ uri: 'weather://stations' });
      expect(stations.contents).toEqual([{ uri: 'weather://stations', mimeType: 'text/plain', text: 'Lisbon\nOslo\nNairobi' }]);
      const prompt = await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Lisbon' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Look at the forecast for Lisbon and plan a day out around it.' });
    } finally {
      await client.close();
    }
  });

  it('the v2 client 2.4.0 over stdio negotiates 2026-07-28 and calls the tools', async () => {
    const client = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2Stdio({ command: process.execPath, args: ['dist/main.js'], cwd: project.root, stderr: 'pipe' }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['to_fahrenheit', 'forecast']);
      const hot = await client.callTool({ name: 'to_fahrenheit', arguments: { celsius: -40 } });
      expect(hot.structuredContent).toEqual({ fahrenheit: -40 });
    } finally {
      await client.close();
    }
  });

  it('Streamable HTTP (node dist/main.js --http 0): SDK 1.32.2 and the v2 client (2026-07-28)', async () => {
    const { url, child } = await start(project, ['dist/main.js', '--http', '0']);
    try {
      const v1 = new V1Client(INFO);
      await v1.connect(new V1Http(new URL(url)));
      expect((await v1.callTool({ name: 'to_fahrenheit', arguments: { celsius: 37 } })).structuredContent).toEqual({ fahrenheit: 98.6 });
      await v1.close();
      const v2 = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
      await v2.connect(new V2Http(new URL(url)));
      expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await v2.callTool({ name: 'to_fahrenheit', arguments: { celsius: 0 } })).structuredContent).toEqual({ fahrenheit: 32 });
      await v2.close();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('mounted in Express (node dist/express.js): MCP at /mcp beside a route of its own', async () => {
    const { url, child } = await start(project, ['dist/express.js', '0']);
    try {
      expect(await (await fetch(new URL('/healthz', url))).json()).toEqual({ ok: true });
      const v2 = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
      await v2.connect(new V2Http(new URL(url)));
      expect((await v2.listTools()).tools).toHaveLength(2);
      await v2.close();
      const v1 = new V1Client(INFO);
      await v1.connect(new V1Http(new URL(url)));
      expect((await v1.callTool({ name: 'to_fahrenheit', arguments: { celsius: 10 } })).structuredContent).toEqual({ fahrenheit: 50 });
      await v1.close();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('wiregen serve dist/server.js --stdio (the packed CLI serving the built module)', async () => {
    const client = new V1Client(INFO);
    await client.connect(
      new V1Stdio({
        command: process.execPath,
        args: ['node_modules/wiregen/dist/bin.js', 'serve', 'dist/server.js', '--stdio'],
        cwd: project.root,
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.callTool({ name: 'to_fahrenheit', arguments: { celsius: 20 } })).structuredContent).toEqual({ fahrenheit: 68 });
    } finally {
      await client.close();
    }
  });
});

describe("the packed wiregen command in a user's project (examples/mcp-server, built)", () => {
  let project: ConsumerProject;
  const cli = (args: readonly string[], stdin = '') =>
    spawnSync(process.execPath, [project.path('node_modules/wiregen/dist/bin.js'), ...args], {
      cwd: project.root,
      encoding: 'utf8',
      input: stdin,
      timeout: 60_000,
    });

  beforeAll(() => {
    project = consumerProject('mcp-server', packed);
    tsc(project);
  }, 300_000);

  afterAll(() => project?.dispose());

  it('validate uses the installed pin package; an unknown revision and a typo are one line each', () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forecast', arguments: { city: 'Oslo' } } };
    writeFileSync(
      project.path('call.json'),
      JSON.stringify({
        ...call,
        params: {
          ...call.params,
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    );
    writeFileSync(project.path('bare.json'), JSON.stringify(call));
    const ok = cli(['validate', 'mcp@2026-07-28', 'CallToolRequest', 'call.json', 'bare.json']);
    expect([ok.status, ok.stdout, ok.stderr]).toEqual([
      1,
      'call.json: valid CallToolRequest\nbare.json /params: missing required property "_meta"\n',
      '',
    ]);
    const unknown = cli(['validate', 'mcp@2099-01-01', 'CallToolRequest', 'call.json']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^mcp@2099-01-01: unknown protocol revision; expected <protocol>@<revision>, one of: .*mcp@2026-07-28.*\n$/);
    const typo = cli(['serve', 'dist/server.js', '--htp', '0']);
    expect([typo.status, typo.stderr]).toEqual([2, 'wiregen serve: unknown option --htp; did you mean --http? (wiregen serve --help)\n']);
  });

  it('diff --against HEAD compares the spec with the committed one', () => {
    const git = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: project.root });
    git('init', '-q');
    git('add', 'server.yaml', 'package.json');
    git('commit', '-q', '-m', 'the spec');
    const spec = readFileSync(project.path('server.yaml'), 'utf8');
    writeFileSync(project.path('server.yaml'), spec.replace('required: [city]', 'required: [city, days]'));
    const d = cli(['diff', '--against', 'HEAD']);
    expect(d.status).toBe(100);
    expect(d.stdout.split('\n')[0]).toBe('server.yaml@HEAD → server.yaml: 1 wire-breaking, 0 source-breaking, 0 compatible');
    expect(d.stdout).toMatch(
      /wire-breaking +PROPERTY_SAME_REQUIRED +server\.yaml:\d+:\d+ \/tools\/1\/inputSchema\/properties\/days: tool forecast input\.days became required/,
    );
    writeFileSync(project.path('server.yaml'), spec);
  });

  it('serve --http with stdin closed keeps serving until SIGTERM, then exits 0', async () => {
    const child = spawn(process.execPath, ['node_modules/wiregen/dist/bin.js', 'serve', 'dist/server.js', '--http', '0'], {
      cwd: project.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => resolve((JSON.parse(d.toString().split('\n')[0]!) as { url: string }).url));
      void exited.then((code) => reject(new Error(`serve exited ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const v2 = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
    await v2.connect(new V2Http(new URL(url)));
    expect((await v2.callTool({ name: 'to_fahrenheit', arguments: { celsius: 100 } })).structuredContent).toEqual({ fahrenheit: 212 });
    await v2.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('examples/a2a-agent, installed from the tarballs', () => {
  let project: ConsumerProject;

  beforeAll(() => {
    project = consumerProject('a2a-agent', packed);
  }, 300_000);

  afterAll(() => project?.dispose());

  it('generates with the packed CLI exactly what the example commits, and type-checks strictly', () => {
    const committed = tree(project.path('src/generated'));
    wiregen(project, ['generate', '--spec', 'agent.yaml', '--out', 'src/generated']);
    expect(tree(project.path('src/generated'))).toEqual(committed);
    tsc(project);
  });

  it('the @a2a-js/sdk 1.3.0 client reads the card, sends, streams, and gets a message back', async () => {
    const { ClientFactory } = await import('@a2a-js/sdk/client');
    const { SendMessageRequest, taskStateToJSON } = await import('@a2a-js/sdk');
    const port = await freePort();
    const { url, child } = await start(project, ['dist/main.js', String(port)]);
    try {
      const client = await new ClientFactory().createFromUrl(url);
      const ask = (text: string) =>
        SendMessageRequest.fromJSON({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
      const result = await client.sendMessage(ask('forecast for Lisbon'));
      expect('status' in result).toBe(true);
      const task = result as import('@a2a-js/sdk').Task;
      expect(taskStateToJSON(task.status!.state)).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('')).toBe(
        'Lisbon: sunny today, cloudy tomorrow, rain after.',
      );
      const hello = await client.sendMessage(ask('hello'));
      expect('status' in hello).toBe(false);
      const frames: string[] = [];
      for await (const event of client.sendMessageStream(ask('forecast for Oslo'))) frames.push(String(event.payload?.$case));
      expect(frames).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'artifactUpdate', 'statusUpdate']);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe("the README's first commands: wiregen init, npm install, npm run build, npm start", () => {
  it('make a server that answers on stdio, from the packed CLI on plain Node', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wiregen-init-'));
    try {
      const root = join(dir, 'weather');
      const cli = join(dir, 'cli');
      // The packed CLI, installed on its own, makes the project; the project then installs the tarballs.
      installTarballs(cli, packed, []);
      run(process.execPath, [join(cli, 'node_modules/wiregen/dist/bin.js'), 'init', 'weather'], { cwd: dir });
      installTarballs(root, packed, []);
      run(NPM, ['run', 'build'], { cwd: root });
      const client = new V1Client(INFO);
      const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start as string;
      expect(start).toBe('wiregen serve dist/server.js --stdio');
      await client.connect(
        new V1Stdio({
          command: process.execPath,
          args: ['node_modules/wiregen/dist/bin.js', 'serve', 'dist/server.js', '--stdio'],
          cwd: root,
          stderr: 'pipe',
        }),
      );
      try {
        expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).structuredContent).toEqual({ sum: 5 });
      } finally {
        await client.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
