/**
 * Draft pins (`served: false`): generated, checked and diffable, never in the registry the runtime
 * negotiates from; ids like mcp-draft; package versions from the revision and commit, never going down.
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { emitRegistry } from '../../generator/emit/dispatch.ts';
import { loadAndCheck } from '../../generator/generate.ts';
import type { Pin } from '../../generator/load/pins.ts';
import { compareSemver, isNewer, packageVersion } from '../../generator/load/version.ts';
import { copyProject, runCli } from '../helpers/project.ts';

const pin = (over: Partial<Omit<Pin, 'source'>> & { source?: Partial<Pin['source']> }): Pin => ({
  id: 'x',
  protocol: 'mcp',
  revision: '2026-07-28',
  schema: 's.json',
  manifest: 'm.yaml',
  files: [],
  ...over,
  source: { repository: 'r', license: 'l', ...over.source },
});
const C = 'b0f60ba5409db7a6582440a7b473cc0398890f15';

describe('package versions', () => {
  it.each([
    ['an MCP dated revision', pin({}), '2026.7.28'],
    ['an A2A release tag', pin({ protocol: 'a2a', revision: '1.0', source: { tag: 'v1.0.1', commit: C } }), '1.0.1'],
    [
      'an untagged commit after v1.0.1',
      pin({ protocol: 'a2a', revision: '1.0', source: { since: 'v1.0.1', commit: C, date: '2026-08-22T10:01:07Z' } }),
      '1.0.2-0.20260822100107.b0f60ba5409d',
    ],
    ['an untagged commit, nothing known', pin({ protocol: 'a2a', revision: '1.0', source: { commit: C } }), '1.0.0'],
    [
      'a draft',
      pin({ revision: 'draft', served: false, source: { commit: C, date: '2026-08-22T12:01:07+02:00' } }),
      '0.0.0-draft.20260822100107.b0f60ba5409d',
    ],
    ['a draft of a dated revision', pin({ revision: '2027-01-15', served: false, source: { commit: C } }), '2027.1.15-draft.b0f60ba5409d'],
  ])('%s', (_name, p, version) => expect(packageVersion(p)).toBe(version));

  it('semver precedence (https://semver.org §11)', () => {
    const ordered = [
      '0.0.0-draft.20260101000000.aaa',
      '0.0.0-draft.20260822100107.b0f',
      '1.0.0',
      '1.0.1',
      '1.0.2-0.20260101000000.fff',
      '1.0.2-0.20260822000000.000',
      '1.0.2',
      '2026.7.28-draft.x',
      '2026.7.28',
    ];
    for (let i = 0; i + 1 < ordered.length; i++) {
      expect(compareSemver(ordered[i]!, ordered[i + 1]!), `${ordered[i]} < ${ordered[i + 1]}`).toBeLessThan(0);
      expect(compareSemver(ordered[i + 1]!, ordered[i]!)).toBeGreaterThan(0);
    }
    expect(compareSemver('1.0.1+build', '1.0.1')).toBe(0);
  });

  it('which of two pinned files is newer: by releases, then dates', () => {
    const p = pin({ source: { since: 'v1.0.1', commit: C } });
    expect(isNewer(p, { path: 'a.proto', original: 'a', sha256: '' }, { path: 'a.json', original: 'b', sha256: '', tag: 'v1.0.0' })).toBe(true);
    expect(isNewer(p, { path: 'a.json', original: 'b', sha256: '', tag: 'v1.0.1' }, { path: 'a.proto', original: 'a', sha256: '' })).toBe(false);
    const q = pin({});
    const at = (date: string) => ({ path: date, original: '', sha256: '', commit: C, date });
    expect(isNewer(q, at('2026-02-01T00:00:00Z'), at('2026-01-01T00:00:00Z'))).toBe(true);
    expect(isNewer(q, { path: 'a', original: '', sha256: '' }, { path: 'b', original: '', sha256: '' })).toBe(false);
  });
});

describe('a draft pin', () => {
  it('is generated and checked, but the registry lists only the served pins', async () => {
    const project = copyProject();
    try {
      const { code } = await runCli(
        ['pin', 'mcp-draft', '--from', project.path('schemas/mcp/2026-07-28'), '--commit', C, '--path', 'schema/draft'],
        project.root,
      );
      expect(code).toBe(0);
      const loaded = loadAndCheck(createContext({ root: project.root, log: () => {} }));
      expect(loaded.plans.map((p) => p.id)).toContain('mcp-draft');
      expect(loaded.plans.find((p) => p.id === 'mcp-draft')!.version).toBe('0.0.0-draft.b0f60ba5409d');
      expect(loaded.mcp.map((p) => p.revision)).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
      expect(loaded.served.map((p) => p.id)).not.toContain('mcp-draft');
      const registry = emitRegistry(loaded.served, loaded.mcp);
      expect(registry).not.toContain('draft');
      expect(registry).toContain('statelessRevisions = ["2026-07-28"]');
      // Specs (the repository's samples included) are checked against the registered pins, which the registry
      // above shows without the draft.
    } finally {
      project.dispose();
    }
  });

  it('an MCP pin whose revision is no date must be a draft: a served one would be negotiated as "draft"', async () => {
    const project = copyProject();
    try {
      await runCli(['pin', 'mcp-draft', '--from', project.path('schemas/mcp/2026-07-28'), '--commit', C, '--path', 'schema/draft'], project.root);
      const doc = JSON.parse(project.read('schemas/pins.json')) as { pins: Pin[] };
      const index = doc.pins.findIndex((p) => p.id === 'mcp-draft');
      delete (doc.pins[index] as { served?: boolean }).served;
      project.write('schemas/pins.json', `${JSON.stringify(doc, null, 2)}\n`);
      const { code, err } = await runCli(['generate', '--check', '--only', 'mcp-draft'], project.root);
      expect(code).toBe(2);
      expect(err).toEqual([
        `schemas/pins.json /pins/${index}/revision: pin mcp-draft: MCP revision "draft" is not a date, so it cannot be negotiated; mark the pin "served": false (a draft)`,
      ]);
    } finally {
      project.dispose();
    }
  });

  it('diffs like any pin', async () => {
    const project = copyProject();
    try {
      await runCli(['pin', 'mcp-draft', '--from', project.path('schemas/mcp/2026-07-28'), '--commit', C, '--path', 'schema/draft'], project.root);
      expect(await runCli(['diff', 'mcp-2026-07-28', 'mcp-draft'], project.root)).toMatchObject({
        code: 0,
        out: ['mcp-2026-07-28 → mcp-draft: 0 wire-breaking, 0 source-breaking, 0 compatible'],
      });
      expect((await runCli(['diff', 'mcp-2025-11-25', 'mcp-draft'], project.root)).code).toBe(100);
    } finally {
      project.dispose();
    }
  });
});
