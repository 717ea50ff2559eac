/**
 * @module test/consumer/mcp-server.suite — examples/mcp-server installed from the tarballs: generated again with
 * the packed CLI, type-checked strictly with the code of the README and the docs/ pages and every package, run
 * on plain Node and called by the official clients over stdio, Streamable HTTP and Express; the README's three
 * ways of writing it and its golden-test commands (readme-servers.suite.ts).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { INFO, start, tree, tsc, wiregen, writeDocBlocks } from './harness.ts';
import { consumerProject, type ConsumerProject, type Packed } from './packages.ts';
import { readmeServersSuite } from './readme-servers.suite.ts';
import { VITEST } from './golden.suite.ts';
import { agentBehaviours, SERVERS, STRICT_OPTIONS } from './strict-modules.ts';

export function mcpServerSuite(packed: () => Packed): void {
  describe('examples/mcp-server, installed from the tarballs', () => {
    let project: ConsumerProject;

    beforeAll(() => {
      // hono and zod (an optional peer: docs/code-first.md's Standard Schema server) for the docs' code; @types/pg for
      // @wiregen/runtime/a2a/postgres's declarations (pg, its optional peer, has none); vitest (wiregen/golden/vitest's
      // optional peer) for docs/golden-tests.md's test file and that entry's declarations.
      project = consumerProject('mcp-server', packed(), ['hono@4', 'zod@4.6.7', '@types/pg@8', VITEST]);
    }, 300_000);

    afterAll(() => project?.dispose());

    it('generates with the packed CLI on plain Node exactly what the example commits', () => {
      const committed = tree(project.path('src/generated'));
      wiregen(project, ['generate', '--spec', 'server.yaml', '--out', 'src/generated']);
      expect(tree(project.path('src/generated'))).toEqual(committed);
    });

    it('type-checks with the strict consumer flags and builds (with the code of the README and docs/, which must compile here)', () => {
      // Every ```ts block of the README and docs/ but an agent's imports what this example has: the weather spec's
      // generated module, its server, express and hono. The README's spec way is this example's src/server.ts;
      // its code-first and handlers ways are written to the files they name, and run below.
      const { written, compared } = writeDocBlocks(project, 'server');
      expect(compared.map((b) => b.file)).toEqual(['src/server.ts']);
      expect(written.map((b) => b.file)).toEqual(expect.arrayContaining(['src/code-first.ts', 'src/handlers.ts']));
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
        ...readdirSync(join(ROOT, 'schemas/samples/a2a')).map((f) => {
          const spec = readFileSync(join(ROOT, 'schemas/samples/a2a', f), 'utf8');
          // A card that requires a scheme (securityRequirements) makes createAgent require its verifier.
          return { name: f.replace(/\.yaml$/, ''), file: 'agent.yaml', spec, behaviours: agentBehaviours(/^\s*securityRequirements:/m.test(spec)) };
        }),
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
      expect(installed.sort()).toEqual([...packed().tarballs.keys()].sort());
      const entries = installed.flatMap((name) => {
        const { exports } = JSON.parse(readFileSync(project.path(`node_modules/${name}/package.json`), 'utf8')) as {
          exports: Record<string, unknown>;
        };
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

    readmeServersSuite(() => project);

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
}
