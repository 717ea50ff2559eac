/**
 * Golden corpus replay (test/golden/README.md): every case of test/golden/manifest.json against a fresh
 * `wiregen serve golden --stdio [--handlers X] [--notifications]` process (test/helpers/golden.ts), its
 * response compared with the committed one as parsed JSON, with JSON inside strings canonical and compared
 * byte for byte. `GOLDEN_ACCEPT=1` writes the responses that are missing (never one that exists); each must
 * then be checked by hand against the specification (https://modelcontextprotocol.io/specification/2026-07-28) and the schema before it is committed.
 *
 * The handshake-era responses are the anchor of "2026-07-28 work leaves the handshake era unchanged". The per-case
 * tests compare them with the current output; the handshake stability test holds both the current output and
 * the committed responses to an oracle of its own, the official SDK's recorded handshake-era sessions
 * (test/helpers/legacy-oracle.ts), so it fails even when the server and the corpus have drifted together.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkOrAccept, committedResponse, loadManifest, requestLine, runCase, type CaseRun, type GoldenCase } from '../helpers/golden.ts';
import { judge, legacyRules, type Judged } from '../helpers/legacy-oracle.ts';

const manifest = loadManifest();
const handshake = manifest.cases.filter((c) => c.era === 'handshake');
const stateless = manifest.cases.filter((c) => c.era === 'stateless');

/** Servers running at once: each is a node process whose start-up is CPU-bound, so about one per core. */
const PARALLEL = Math.max(2, Math.min(4, availableParallelism()));
let running = 0;
const queue: Array<() => void> = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running < PARALLEL) running++;
  else await new Promise<void>((resolve) => queue.push(resolve)); // a finishing run hands its slot over
  try {
    return await work();
  } finally {
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}

/** One server run per case, shared by the per-case tests and the handshake stability test. */
const runs = new Map<string, Promise<CaseRun>>();
function run(c: GoldenCase): Promise<CaseRun> {
  let r = runs.get(c.name);
  if (!r) runs.set(c.name, (r = slot(() => runCase(manifest, c))));
  return r;
}

describe.concurrent('golden corpus replays against serve golden --stdio (test/golden/README.md)', () => {
  for (const c of [...handshake, ...stateless])
    it(`${c.name} (${c.category}, ${c.handlers}${c.notifications ? ', notifications' : ''})`, async () => {
      const failure = checkOrAccept(c, await run(c));
      if (failure) throw new Error(failure);
    });
});

describe('handshake stability: the handshake era as the official SDK recorded it', () => {
  const rules = legacyRules();
  const judged = (c: GoldenCase, response: unknown): Judged => {
    const request = JSON.parse(requestLine(c)) as Judged['request'];
    return { name: c.name, request, response: response as Judged['response'] };
  };

  it(`the live answers and the committed ones keep the rules the SDK's recorded handshake sessions give (${handshake.length} cases)`, async () => {
    const violations: string[] = [];
    let covered = 0;
    for (const c of handshake) {
      const r = await run(c);
      if (r.failure) {
        violations.push(r.failure);
        continue;
      }
      const live = judge(rules, judged(c, r.response));
      const committed = committedResponse(c);
      const kept = committed === undefined ? { applied: 0, violations: [] } : judge(rules, judged(c, committed));
      if (live.applied) covered++;
      violations.push(...live.violations, ...kept.violations.map((v) => `committed ${v}`));
    }
    expect(violations, 'the handshake era must answer as the official SDK did (test/helpers/legacy-oracle.ts)').toEqual([]);
    expect(covered, 'handshake-era cases the recordings speak about').toBeGreaterThanOrEqual(35);
  }, 600_000); // run alone (-t), it plays every handshake-era case itself

  it('can fail by itself: answers the SDK would not give break its rules', () => {
    const c = handshake.find((x) => x.name === 'legacy/resources-read-unknown')!;
    const right = committedResponse(c) as Judged['response'];
    expect(judge(rules, judged(c, right)).violations).toEqual([]);
    const reworded = { ...right, error: { ...right['error'], message: 'Resource not found: resource://nope' } };
    expect(judge(rules, judged(c, reworded)).violations).toHaveLength(1);
    const ping = handshake.find((x) => x.name === 'legacy/ping')!;
    expect(judge(rules, judged(ping, { jsonrpc: '2.0', id: 2, result: { resultType: 'complete' } })).violations.length).toBeGreaterThan(0);
    const init = handshake.find((x) => x.name === 'legacy/initialize')!;
    const initialized = committedResponse(init) as Judged['response'];
    const newest = { ...initialized, result: { ...initialized['result'], protocolVersion: '2025-11-25' } };
    expect(judge(rules, judged(init, newest)).violations).toHaveLength(1);
  });

  it('every rule is read off the recordings and speaks about at least one handshake-era case', () => {
    for (const rule of rules)
      expect(
        handshake.some((c) => rule.applies(judged(c, committedResponse(c)))),
        rule.description,
      ).toBe(true);
  });
});
