/**
 * @module test/consumer — wiregen as another project uses it. Every workspace package is built and packed; the
 * examples (examples/mcp-server, examples/notes-server, examples/a2a-agent) are copied outside the repository and install the
 * tarballs; their spec is generated again with the packed CLI (and must equal what the example commits);
 * `tsc` type-checks them with the strict consumer flags and no `allowImportingTsExtensions`; they run on plain
 * Node (no tsx, no loader); and the official clients call them: `@modelcontextprotocol/sdk` 1.32.2 (handshake
 * era) and `@modelcontextprotocol/client` 2.4.0 (2026-07-28 through its versionNegotiation) over stdio and
 * Streamable HTTP, and `@a2a-js/sdk` 1.3.0 for the agent. `wiregen init --target` makes a project for each
 * target, run on Node, Bun, Deno and workerd (targets.suite.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { a2aAgentSuite } from './a2a-agent.suite.ts';
import { cliSuite } from './cli.suite.ts';
import { goldenSuite } from './golden.suite.ts';
import { children } from './harness.ts';
import { mcpServerSuite } from './mcp-server.suite.ts';
import { notesServerSuite } from './notes-server.suite.ts';
import { buildAndPack, packedFiles, workspacePackages, type Packed } from './packages.ts';
import { targetsSuite } from './targets.suite.ts';

let packed: Packed;

beforeAll(() => {
  packed = buildAndPack();
}, 300_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  packed?.dispose();
});

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

  it("ship every file their `exports` and `imports` maps point at (a pin's accept-path sets, by condition)", () => {
    const files = packedFiles();
    let imports = 0;
    for (const { dir } of workspacePackages().values()) {
      const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { name: string; exports?: unknown; imports?: unknown };
      imports += Object.keys(manifest.imports ?? {}).length;
      const targets = [manifest.exports, manifest.imports].flatMap(function leaves(v: unknown): string[] {
        return typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [];
      });
      const shipped = new Set(files.get(manifest.name));
      expect(
        targets.map((t) => t.replace(/^\.\//, '')).filter((t) => !shipped.has(t)),
        manifest.name,
      ).toEqual([]);
    }
    // Every pin maps #accept-path (generator/emit/validators/index.ts ACCEPT_PATH).
    expect(imports).toBeGreaterThanOrEqual(7);
  });
});

mcpServerSuite(() => packed);
notesServerSuite(() => packed);
cliSuite(() => packed);
a2aAgentSuite(() => packed);
targetsSuite(() => packed);
goldenSuite(() => packed);
