/**
 * @module test/consumer/readme-servers.suite — the README's weather server written its three ways (a spec file:
 * examples/mcp-server/src/server.ts; code first: src/code-first.ts; handlers: src/handlers.ts, both written from
 * the README's blocks by mcp-server.suite.ts and built with the example), each called by both official MCP SDK
 * clients; and the README's golden-test commands, run in the example project as a user would run them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { INFO } from './harness.ts';
import { run, type ConsumerProject } from './packages.ts';

/** Each way of writing the server: the module that serves it on stdio, and its answer to `days: 9`. */
const WAYS = [
  // The generated validators answer arguments the inputSchema refuses (docs/errors.md), naming the pointer.
  { way: 'spec file', main: 'dist/main.js', badDays: '/days must be <= 7' },
  { way: 'code-first', main: 'dist/code-first.js', badDays: '/days must be <= 7' },
  // A handler checks its own arguments: its thrown Error's message is the text.
  { way: 'handlers', main: 'dist/handlers.js', badDays: 'days: an integer from 1 to 7' },
] as const;

/** The README's ```sh block of its "Golden tests" section. */
function goldenCommands(): { block: string; prose: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Golden tests');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (start < 0 || block === undefined) throw new Error('README.md has no "Golden tests" section with a ```sh block');
  return { block, prose: section.slice(section.indexOf(block) + block.length) };
}

export function readmeServersSuite(project: () => ConsumerProject): void {
  it.each(WAYS)(
    "the README's $way server, in both eras: progress, cancellation, a thrown error's message, a resource template",
    async ({ main, badDays }) => {
      const root = project().root;
      const v1 = new V1Client(INFO);
      const v2 = new V2Client(INFO, { versionNegotiation: { mode: 'auto' } });
      await v1.connect(new V1Stdio({ command: process.execPath, args: [main], cwd: root, stderr: 'pipe' }));
      await v2.connect(new V2Stdio({ command: process.execPath, args: [main], cwd: root, stderr: 'pipe' }));
      try {
        expect(v2.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        const seen: [string, number, number | undefined, string | undefined][] = [];
        const forecast = { name: 'forecast', arguments: { city: 'Nairobi', days: 3 } };
        const v1Result = await v1.callTool(forecast, undefined, { onprogress: (p) => seen.push(['v1', p.progress, p.total, p.message]) });
        const v2Result = await v2.callTool(forecast, { onprogress: (p) => seen.push(['v2', p.progress, p.total, p.message]) });
        for (const result of [v1Result, v2Result])
          expect(result.content).toEqual([
            { type: 'text', text: 'Nairobi, day 1: sunny, 18 °C\nNairobi, day 2: cloudy, 19 °C\nNairobi, day 3: sunny, 20 °C' },
          ]);
        for (const era of ['v1', 'v2'])
          expect(seen.filter(([who]) => who === era).map(([, ...rest]) => rest)).toEqual([
            [0, 3, 'forecasting day 1 of 3'],
            [1, 3, 'forecasting day 2 of 3'],
            [2, 3, 'forecasting day 3 of 3'],
          ]);
        // Cancelled after its first day: the client's call rejects, and the server goes on serving.
        for (const call of [
          (signal: AbortSignal, onprogress: () => void) =>
            v1.callTool({ ...forecast, arguments: { city: 'Oslo', days: 7 } }, undefined, { signal, onprogress }),
          (signal: AbortSignal, onprogress: () => void) => v2.callTool({ ...forecast, arguments: { city: 'Oslo', days: 7 } }, { signal, onprogress }),
        ]) {
          const controller = new AbortController();
          await expect(call(controller.signal, () => controller.abort('enough'))).rejects.toThrow();
        }
        for (const client of [v1, v2]) {
          const paris = await client.callTool({ name: 'forecast', arguments: { city: 'Paris' } });
          expect(paris).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no station in Paris; stations: Lisbon, Oslo, Nairobi' }] });
          const tooMany = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 9 } });
          expect(tooMany.isError).toBe(true);
          expect(JSON.stringify(tooMany.content)).toContain(badDays);
          const oslo = await client.readResource({ uri: 'weather://stations/Oslo' });
          expect(oslo.contents).toEqual([{ uri: 'weather://stations/Oslo', mimeType: 'text/plain', text: 'Oslo: 18 °C, wind 3 m/s' }]);
          const { resourceTemplates } = await client.listResourceTemplates();
          expect(resourceTemplates).toMatchObject([{ uriTemplate: 'weather://stations/{city}', name: 'station', mimeType: 'text/plain' }]);
        }
      } finally {
        await v1.close();
        await v2.close();
      }
    },
  );

  it("the README's golden-test commands: record, check over stdio and HTTP, generate --check, diff --against HEAD", async () => {
    const root = project().root;
    const git = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: root });
    // `diff --against HEAD` compares the spec with the committed one.
    if (!existsSync(join(root, '.git'))) git('init', '-q');
    git('add', 'server.yaml');
    git('commit', '-q', '--allow-empty', '-m', 'the spec');
    const { block, prose } = goldenCommands();
    const sh = spawnSync('sh', ['-e'], { cwd: root, input: block, encoding: 'utf8', timeout: 180_000 });
    expect(sh.status, `${sh.stdout}${sh.stderr}`).toBe(0);
    expect(sh.stdout).toContain('3 cases: 1 passed, 0 failed, 2 accepted');
    expect(sh.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+(\d+) passed \(\1\)/); // golden.test.ts (and docs/golden-tests.md's src/golden.test.ts), by vitest
    const manifest = JSON.parse(readFileSync(join(root, 'golden/manifest.json'), 'utf8')) as { cases: { name: string }[] };
    expect(manifest.cases.map((c) => c.name)).toEqual(['legacy/tools-list', 'modern/tools-list', 'modern/forecast']);
    const forecast = JSON.parse(readFileSync(join(root, 'golden/modern/forecast.response.json'), 'utf8')) as unknown;
    expect(forecast).toMatchObject({ result: { content: [{ type: 'text' }] } });
    // The HTTP form the README gives in prose: a process per case, each on a free port.
    const overHttp = /`(golden check golden --url 'http:\/\/127\.0\.0\.1:\$PORT\/mcp' -- node dist\/main\.js --http '\$PORT')`/.exec(prose)?.[1];
    expect(overHttp).toBeDefined();
    const http = spawnSync('sh', ['-ec', `npx wiregen ${overHttp!}`], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect([http.status, http.stdout]).toEqual([0, '3 cases: 3 passed, 0 failed\n']);
  });
}
