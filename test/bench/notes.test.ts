/**
 * @module test/bench/notes — the notes part of the bench (bench/notes/): every server of bench/servers/notes/
 * (ours on both paths, the SDK v2, tmcp, the SDK v1) answers `add_note` and `list_notes` with the same
 * structuredContent after the same calls, and rejects the same invalid note; the part runs for a fraction of
 * a second and yields well-formed rows. Ours runs from sources under tsx here (the bench runs the built
 * packages, which take a build); no time is asserted (speed numbers belong to `npm run bench`).
 */
import { describe, expect, test } from 'vitest';
import { probe, startChecked } from '../../bench/lib/load.ts';
import { callRequest, LABELS, measure, notesSubjects, type Key } from '../../bench/notes/index.ts';

type Answer = { result?: { structuredContent?: unknown; isError?: boolean }; error?: { code: number } };

/** The calls every server gets, in order; what each answered. */
async function session(key: Key, url: string): Promise<Answer[]> {
  const note = (title: string, tags: string[]) => ({ title, body: `About ${title}`, tags, priority: 'low', due: '2026-01-31' });
  const calls: [string, unknown][] = [
    ['add_note', note('First', ['a'])],
    ['add_note', note('Second', ['b'])],
    ['add_note', note('Third', ['a', 'b'])],
    ['list_notes', { limit: 50 }],
    ['list_notes', { tag: 'a', limit: 1 }],
    ['list_notes', { tag: 'a', limit: 1, cursor: '1' }],
  ];
  const answers: Answer[] = [];
  for (const [name, args] of calls) {
    const r = callRequest(name, args, key === 'v1');
    const { status, json } = await probe(url, r.headers, r.body);
    expect(status, `${key} ${name}`).toBe(200);
    answers.push(json as Answer);
  }
  return answers;
}

/** Invalid notes: an empty title, an unknown priority, eleven tags, a due date that is no date. */
const INVALID = [
  { title: '', body: 'b' },
  { title: 't', body: 'b', priority: 'urgent' },
  { title: 't', body: 'b', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
  { title: 't', body: 'b', due: 'tomorrow' },
];

describe('the notes server on every framework', () => {
  test('answers the same structuredContent and rejects the same invalid notes', { timeout: 40_000 }, async () => {
    const keys = Object.keys(LABELS) as Key[];
    const results = await Promise.all(
      notesSubjects('add_note', [], { fromSources: true }).map(async (s) => {
        // startChecked sends one add_note (note n1) and checks the answer before these calls.
        const { child, url } = await startChecked(s);
        try {
          const answers = await session(s.key as Key, url);
          const rejected: boolean[] = [];
          for (const args of INVALID) {
            const r = callRequest('add_note', args, s.key === 'v1');
            const { json } = await probe(url, r.headers, r.body);
            rejected.push((json as Answer).result?.isError === true || (json as Answer).error !== undefined);
          }
          return [s.key, { structured: answers.map((a) => a.result?.structuredContent), rejected }] as const;
        } finally {
          await child.stop();
        }
      }),
    );
    const by = Object.fromEntries(results);
    expect(Object.keys(by).sort()).toEqual([...keys].sort());
    // Written from the handlers of examples/notes-server: ids count from n1 (the probe's note), pages by tag.
    const expected = [
      { id: 'n2' },
      { id: 'n3' },
      { id: 'n4' },
      {
        notes: [
          { id: 'n1', title: 'Release checklist 1' },
          { id: 'n2', title: 'First' },
          { id: 'n3', title: 'Second' },
          { id: 'n4', title: 'Third' },
        ],
      },
      { notes: [{ id: 'n2', title: 'First' }], next: '1' },
      { notes: [{ id: 'n4', title: 'Third' }] },
    ];
    for (const k of keys) {
      expect(by[k]!.structured, k).toEqual(expected);
      expect(by[k]!.rejected, k).toEqual([true, true, true, true]);
    }
  });

  test('the part runs briefly (list_notes, no warm-up) and yields well-formed rows', { timeout: 40_000 }, async () => {
    const rows = await measure(
      { duration: 0.3, rounds: 1, log: () => {}, missProfDir: '/nonexistent' },
      {
        fromSources: true,
        warmupS: 0,
        workloads: ['list_notes'],
      },
    );
    expect(new Set(rows.map((r) => r.workload))).toEqual(new Set(['list_notes']));
    for (const r of rows) {
      expect(r.part).toBe('notes');
      expect(r.value, `${r.workload} ${r.subject} ${r.metric}`).toBeGreaterThan(0);
      if (r.ratio !== undefined) expect(r.ratio).toBeGreaterThan(0);
    }
    const targets = rows.filter((r) => r.targetId);
    expect(targets.map((r) => [r.targetId, r.subject, r.workload, typeof r.met])).toEqual([['notes-rps-list', LABELS.ours, 'list_notes', 'boolean']]);
    expect(targets.every((r) => r.ratioLabel?.startsWith('fastest peer ('))).toBe(true);
  });
});
