/**
 * @module test/consumer/cli.suite — the packed `wiregen` command in a user's project (examples/mcp-server,
 * built), and the README's first commands (init, install, build, start) from the packed CLI.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { children, INFO, tsc } from './harness.ts';
import { consumerProject, installTarballs, NPM, run, type ConsumerProject, type Packed } from './packages.ts';

export function cliSuite(packed: () => Packed): void {
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
      project = consumerProject('mcp-server', packed());
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

  describe("the README's first commands: wiregen init, npm install, npm run build, npm start", () => {
    it('make a server that answers on stdio, from the packed CLI on plain Node', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wiregen-init-'));
      try {
        const root = join(dir, 'weather');
        const cli = join(dir, 'cli');
        // The packed CLI, installed on its own, makes the project; the project then installs the tarballs.
        installTarballs(cli, packed(), []);
        run(process.execPath, [join(cli, 'node_modules/wiregen/dist/bin.js'), 'init', 'weather'], { cwd: dir });
        installTarballs(root, packed(), []);
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
}
