/**
 * `wiregen pin`: a new pin copied in with its provenance and sha256 (checked here with node:crypto, not
 * with the tool's hashing), its manifest started from the nearest pin's, `--check`, updates, git checkouts,
 * package versions that never go down, and bad input (one line, exit 2, nothing written).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { loadForDiff } from '../../generator/evolve/diff.ts';
import type { Pin } from '../../generator/load/pins.ts';
import { copyProject, ROOT, runCli, type Project } from '../helpers/project.ts';

const COMMIT = 'b0f60ba5409db7a6582440a7b473cc0398890f15';
const REPO = 'https://github.com/modelcontextprotocol/modelcontextprotocol';
const temp: string[] = [];
afterAll(() => temp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of one pinned folder, standing in for an upstream checkout's schema/<revision>/. */
function upstream(rel: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wiregen-upstream-'));
  temp.push(dir);
  cpSync(join(ROOT, 'schemas', rel), dir, { recursive: true });
  return dir;
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();
}

/** Every file under schemas/ with its sha256: to show that nothing was written. */
function snapshot(project: Project): Record<string, string> {
  const dir = project.path('schemas');
  return Object.fromEntries(
    files(dir).map((p) => [
      p,
      createHash('sha256')
        .update(readFileSync(join(dir, p)))
        .digest('hex'),
    ]),
  );
}

const pins = (project: Project) => (JSON.parse(project.read('schemas/pins.json')) as { pins: Pin[] }).pins;

describe('a new pin', () => {
  const project = copyProject();
  const source = upstream('mcp/2026-07-28');
  afterAll(() => project.dispose());

  it('copies schema.json and the 129 examples, records each sha256, starts the manifest, and says the cross-check is clean', async () => {
    const t0 = performance.now();
    const { code, out, err } = await runCli(
      ['pin', 'mcp-draft', '--from', source, '--repo', REPO, '--commit', COMMIT, '--path', 'schema/draft', '--date', '2026-08-22T10:01:07+00:00'],
      project.root,
    );
    const seconds = (performance.now() - t0) / 1000;
    console.log(`wiregen pin mcp-draft (130 files): ${seconds.toFixed(2)} s`);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[0]).toBe(`Pinned mcp-draft at ${COMMIT.slice(0, 12)}: 130 file(s) copied (129 examples); their sha256 recorded in schemas/pins.json.`);
    expect(out).toContain("Started schemas/manifest/mcp-draft.yaml from mcp-2026-07-28's manifest.");
    expect(out).toContain("Against mcp-2026-07-28: 0 wire-breaking, 0 source-breaking, 0 compatible ('wiregen diff' lists them).");
    expect(out).toContain('Package version: 0.0.0-draft.20260822100107.b0f60ba5409d.');

    const pin = pins(project).find((p) => p.id === 'mcp-draft')!;
    // The new pin follows the last MCP pin of the repository's pins.json, whatever those are.
    const before = (JSON.parse(readFileSync(join(ROOT, 'schemas/pins.json'), 'utf8')) as { pins: Pin[] }).pins.map((p) => p.id);
    const lastMcp = before.findLastIndex((id) => id.startsWith('mcp-'));
    expect(pins(project).map((p) => p.id)).toEqual([...before.slice(0, lastMcp + 1), 'mcp-draft', ...before.slice(lastMcp + 1)]);
    expect({ ...pin, files: pin.files.length }).toEqual({
      id: 'mcp-draft',
      protocol: 'mcp',
      revision: 'draft',
      served: false,
      schema: 'mcp/draft/schema.json',
      manifest: 'manifest/mcp-draft.yaml',
      examples: 'mcp/draft/examples',
      source: { repository: REPO, commit: COMMIT, date: '2026-08-22T10:01:07+00:00', license: pins(project)[4]!.source.license },
      files: 130,
    });
    for (const rel of files(source)) {
      const record = pin.files.find((f) => f.path === `mcp/draft/${rel}`);
      expect(record, rel).toEqual({
        path: `mcp/draft/${rel}`,
        original: `schema/draft/${rel}`,
        sha256: createHash('sha256')
          .update(readFileSync(join(source, rel)))
          .digest('hex'),
      });
      expect(readFileSync(project.path(`schemas/mcp/draft/${rel}`)).equals(readFileSync(join(source, rel))), rel).toBe(true);
    }
    const manifest = project.read('schemas/manifest/mcp-draft.yaml');
    expect(manifest).toMatch(/^# Started by 'wiregen pin' from manifest\/mcp-2026-07-28\.yaml/);
    expect(manifest).toContain('\npin: mcp-draft\nprotocol: mcp\nrevision: "draft"\n');
    expect(manifest.split('\n').slice(4).join('\n')).toBe(
      project
        .read('schemas/manifest/mcp-2026-07-28.yaml')
        .split('\n')
        .slice(3)
        .join('\n')
        .replace('pin: mcp-2026-07-28\nprotocol: mcp\nrevision: "2026-07-28"', 'pin: mcp-draft\nprotocol: mcp\nrevision: "draft"'),
    );
  });

  it('--check: exit 0 while schemas/ holds the source as pinned; 1 naming what differs, writing nothing', async () => {
    const args = [
      'pin',
      'mcp-draft',
      '--from',
      source,
      '--repo',
      REPO,
      '--commit',
      COMMIT,
      '--path',
      'schema/draft',
      '--date',
      '2026-08-22T10:01:07+00:00',
      '--check',
    ];
    expect(await runCli(args, project.root)).toMatchObject({
      code: 0,
      out: ['mcp-draft is pinned as the source says: 130 file(s), sha256 and provenance agree.'],
    });
    writeFileSync(join(source, 'examples/Tool/with-no-parameters.json'), '{"name": "changed upstream", "inputSchema": {"type": "object"}}\n');
    const before = snapshot(project);
    const { code, out } = await runCli(args, project.root);
    expect(code).toBe(1);
    expect(out).toEqual([
      'mcp-draft differs from the source (nothing written):',
      `  schemas/mcp/draft/examples/Tool/with-no-parameters.json: differs from ${join(source, 'examples/Tool/with-no-parameters.json')}`,
      `  schemas/pins.json /pins/${pins(project).findIndex((p) => p.id === 'mcp-draft')}/files: 1 sha256 differ from the source's files`,
    ]);
    expect(snapshot(project)).toEqual(before);
  });

  it('--update: takes the changed example, drops one upstream deleted, keeps the version monotone', async () => {
    rmSync(join(source, 'examples/AudioContent'), { recursive: true });
    const { code, out } = await runCli(
      ['pin', 'mcp-draft', '--update', '--from', source, '--commit', 'c'.repeat(40), '--date', '2026-09-01T00:00:00Z'],
      project.root,
    );
    expect(code).toBe(0);
    expect(out[0]).toBe(
      'Re-pinned mcp-draft at cccccccccccc: 129 file(s) copied (128 examples), 1 no longer upstream removed; their sha256 recorded in schemas/pins.json.',
    );
    const pin = pins(project).find((p) => p.id === 'mcp-draft')!;
    expect(pin.files.some((f) => f.path.includes('AudioContent'))).toBe(false);
    expect(pin.source.repository).toBe(REPO);
    expect(pin.files.find((f) => f.path === 'mcp/draft/examples/Tool/with-no-parameters.json')!.original).toBe(
      'schema/draft/examples/Tool/with-no-parameters.json',
    );
    expect(files(project.path('schemas/mcp/draft')).filter((p) => p.includes('AudioContent'))).toEqual([]);
    expect(out).toContain('Package version: 0.0.0-draft.20260901000000.cccccccccccc.');
  });
});

describe('an A2A pin re-pinned to an untagged commit', () => {
  it('keeps the bundle it has, takes the proto, and the version rises above 1.0.1 instead of falling to 1.0.0', async () => {
    const project = copyProject();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'wiregen-a2a-'));
      temp.push(dir);
      // Upstream's specification/ after v1.0.1: the proto only (a2a.json is built, not committed), one comment changed.
      const pinned = readFileSync(join(ROOT, 'schemas/a2a/1.0/a2a.proto'), 'utf8');
      const proto = pinned.replace('// The resource ID of the task to retrieve.', '// The resource ID of the task to fetch.');
      expect(proto).not.toBe(pinned);
      writeFileSync(join(dir, 'a2a.proto'), proto);
      const commit = 'cfc9d34bc41e368827eb6446d31f912e44f795c5';
      const { code, out } = await runCli(
        ['pin', 'a2a-1.0', '--update', '--from', dir, '--commit', commit, '--date', '2026-07-21T16:48:19Z'],
        project.root,
      );
      expect(code).toBe(0);
      expect(out).toContain('Package version: 1.0.2-0.20260721164819.cfc9d34bc41e.');
      const pin = pins(project).find((p) => p.id === 'a2a-1.0')!;
      expect(pin.source).toEqual({
        repository: 'https://github.com/a2aproject/A2A',
        since: 'v1.0.1',
        commit,
        date: '2026-07-21T16:48:19Z',
        license: 'Apache-2.0',
      });
      expect(pin.files.map((f) => [f.path, f.original, f.tag])).toEqual([
        ['a2a/1.0/a2a.json', expect.stringMatching(/^specification\/json\/a2a\.json as published/), 'v1.0.0'],
        ['a2a/1.0/a2a.proto', 'specification/a2a.proto', undefined],
      ]);
      expect(project.read('schemas/a2a/1.0/a2a.proto')).toBe(proto);
      // The proto follows v1.0.1 and the bundle is v1.0.0: the doc comments are the proto's.
      const [loaded] = loadForDiff(createContext({ root: project.root, log: () => {} }), ['a2a-1.0']);
      const id = (loaded!.bundle.defs['GetTaskRequest']!['properties'] as Record<string, { description?: string }>)['id'];
      expect(id!.description).toBe('The resource ID of the task to fetch.');
      // A tag below the pin's release is refused: the version would go down.
      const before = snapshot(project);
      const down = await runCli(['pin', 'a2a-1.0', '--update', '--from', dir, '--commit', commit, '--tag', 'v1.0.0'], project.root);
      expect(down.code).toBe(2);
      expect(down.err).toEqual([
        `schemas/pins.json /pins/${pins(project).findIndex((p) => p.id === 'a2a-1.0')}: the package version would go down from 1.0.2-0.20260721164819.cfc9d34bc41e to 1.0.0; a commit after 1.0.2-0.20260721164819.cfc9d34bc41e needs no --tag, or the tag of a later release`,
      ]);
      expect(snapshot(project)).toEqual(before);
    } finally {
      project.dispose();
    }
  });
});

describe('from a git checkout', () => {
  it('reads the commit, its date, an exact tag, the origin and the path off git', async () => {
    const project = copyProject();
    try {
      const repo = mkdtempSync(join(tmpdir(), 'wiregen-checkout-'));
      temp.push(repo);
      cpSync(join(ROOT, 'schemas/mcp/2024-11-05'), join(repo, 'schema/2024-11-05'), { recursive: true });
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
      git('init', '-q');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'root');
      git('add', '.');
      execFileSync(
        'git',
        ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'schema', '--date', '2024-11-05T12:00:00Z'],
        {
          cwd: repo,
          env: { ...process.env, GIT_COMMITTER_DATE: '2024-11-05T12:00:00+00:00' },
        },
      );
      git('tag', '2024-11-05');
      git('remote', 'add', 'origin', `${REPO}.git`);
      const head = git('rev-parse', 'HEAD');
      const { code, out } = await runCli(['pin', 'mcp-2024-11-05', '--update', '--from', join(repo, 'schema/2024-11-05')], project.root);
      expect(out[0]).toBe(
        `Re-pinned mcp-2024-11-05 at ${head.slice(0, 12)} (2024-11-05): 1 file(s) copied; their sha256 recorded in schemas/pins.json.`,
      );
      expect(code).toBe(0);
      const pin = pins(project)[0]!;
      expect(pin.source).toMatchObject({ repository: REPO, tag: '2024-11-05', commit: head, date: '2024-11-05T12:00:00+00:00' });
      expect(pin.files[0]!.original).toBe('schema/2024-11-05/schema.json');
      // An uncommitted change is refused: the commit would not say what was pinned.
      writeFileSync(join(repo, 'schema/2024-11-05/schema.json'), '{}');
      const dirty = await runCli(['pin', 'mcp-2024-11-05', '--update', '--from', join(repo, 'schema/2024-11-05')], project.root);
      expect(dirty).toMatchObject({
        code: 2,
        err: [`${join(repo, 'schema/2024-11-05')}: has uncommitted changes in its git checkout: commit them, or pin a clean checkout`],
      });
    } finally {
      project.dispose();
    }
  });
});

describe('bad input: one line, exit 2, nothing written', () => {
  const project = copyProject();
  const source = upstream('mcp/2025-06-18');
  afterAll(() => project.dispose());
  const cases: [string, string[], string][] = [
    [
      'an unreadable source',
      ['pin', 'mcp-2027-01-01', '--from', '/no/such/dir', '--commit', COMMIT],
      '/no/such/dir: cannot read the source (ENOENT)',
    ],
    [
      'a pin id that exists',
      ['pin', 'mcp-2025-06-18', '--from', source, '--commit', COMMIT],
      'schemas/pins.json /pins/2: pin mcp-2025-06-18 exists; re-pin it with --update',
    ],
    [
      'a commit that is not 40 hex digits',
      ['pin', 'mcp-2027-01-01', '--from', source, '--commit', 'b0f60ba5'],
      '--commit: "b0f60ba5" is not a commit: 40 hex digits expected',
    ],
    [
      'a pin id that is not <protocol>-<revision>',
      ['pin', 'grpc-1', '--from', source, '--commit', COMMIT],
      'grpc-1: a pin id is <protocol>-<revision>: mcp-2026-07-28, a2a-1.0, mcp-draft',
    ],
    [
      '--update of a pin that does not exist',
      ['pin', 'mcp-2027-01-01', '--update', '--from', source, '--commit', COMMIT],
      expect.stringMatching(/^schemas\/pins\.json: no pin mcp-2027-01-01 to update/),
    ],
    [
      'a folder without schema.json',
      ['pin', 'mcp-2027-01-01', '--from', tmpdir(), '--commit', COMMIT],
      `${tmpdir()}: holds no schema.json (the layout of schema/<revision>/ upstream)`,
    ],
    [
      'no commit and no git checkout',
      ['pin', 'mcp-2027-01-01', '--from', source],
      `${source}: give --commit: the source commit (not a git checkout, so it cannot be read off)`,
    ],
    [
      'two pins of different protocols to diff',
      ['diff', 'mcp-2026-07-28', 'a2a-1.0'],
      'schemas/pins.json: mcp-2026-07-28 is mcp and a2a-1.0 is a2a: diff compares two pins of one protocol',
    ],
    [
      'diff of an unknown pin',
      ['diff', 'mcp-2026-07-28', 'mcp-2099-01-01'],
      expect.stringMatching(/^schemas\/pins\.json: no pin mcp-2099-01-01 \(pins: mcp-2024-11-05, /),
    ],
  ];
  it.each(cases)('%s', async (_name, argv, line) => {
    const before = snapshot(project);
    const { code, out, err } = await runCli(argv, project.root);
    expect({ code, err, out }).toEqual({ code: 2, err: [line], out: [] });
    expect(snapshot(project)).toEqual(before);
  });

  it('a source schema that is not JSON names the source file and line', async () => {
    const broken = upstream('mcp/2025-06-18');
    writeFileSync(join(broken, 'schema.json'), '{\n  "$schema": }\n');
    const before = snapshot(project);
    const { code, err } = await runCli(['pin', 'mcp-2027-01-01', '--from', broken, '--commit', COMMIT, '--path', 'schema/2027-01-01'], project.root);
    expect(code).toBe(2);
    expect(err).toEqual([`${join(broken, 'schema.json')}:2:14: not valid JSON: unexpected "}"`]);
    expect(snapshot(project)).toEqual(before);
    expect(relative(project.root, project.path('schemas'))).toBe('schemas');
  });
});

describe('a new revision the nearest manifest does not fit', () => {
  it('is pinned, and the cross-check findings are what must be filled in (exit 1)', async () => {
    const project = copyProject();
    try {
      const source = upstream('mcp/2025-11-25');
      const { code, out } = await runCli(
        ['pin', 'mcp-2027-01-01', '--from', source, '--commit', COMMIT, '--path', 'schema/2027-01-01'],
        project.root,
      );
      expect(code).toBe(1);
      expect(out).toContain("Started schemas/manifest/mcp-2027-01-01.yaml from mcp-2026-07-28's manifest.");
      const todo = out.findIndex((l) => l.startsWith('To fill in:'));
      expect(out[todo]).toMatch(/^To fill in: the manifest cross-check has \d+ finding\(s\); fix them, then run 'npm run generate':$/);
      expect(out.slice(todo + 1)).toContain(
        '  schemas/mcp/2027-01-01/schema.json /$defs/InitializeRequest: fixes method "initialize", but schemas/manifest/mcp-2027-01-01.yaml has no entry for it',
      );
      // Exactly what generate reports, so the list is the work left.
      const generate = await runCli(['generate', '--check', '--only', 'mcp-2027-01-01'], project.root);
      expect(generate.code).toBe(2);
      expect(generate.err.map((l) => `  ${l}`)).toEqual(out.slice(todo + 1));
      expect(pins(project).find((p) => p.id === 'mcp-2027-01-01')!.files[0]!.original).toBe('schema/2027-01-01/schema.json');
    } finally {
      project.dispose();
    }
  });
});

describe('re-pinning a pin at its own commit', () => {
  it('changes nothing: the same records, so pins.json is byte-identical', async () => {
    const project = copyProject();
    try {
      const before = project.read('schemas/pins.json');
      const a2a = pins(project).find((p) => p.id === 'a2a-1.0')!;
      const mcp = pins(project).find((p) => p.id === 'mcp-2026-07-28')!;
      const dir = mkdtempSync(join(tmpdir(), 'wiregen-same-'));
      temp.push(dir);
      cpSync(project.path('schemas/a2a/1.0/a2a.proto'), join(dir, 'a2a.proto'));
      expect((await runCli(['pin', 'a2a-1.0', '--update', '--from', dir, '--commit', a2a.source.commit!], project.root)).code).toBe(0);
      expect(
        (await runCli(['pin', 'mcp-2026-07-28', '--update', '--from', upstream('mcp/2026-07-28'), '--commit', mcp.source.commit!], project.root))
          .code,
      ).toBe(0);
      expect(project.read('schemas/pins.json')).toBe(before);
    } finally {
      project.dispose();
    }
  });
});
