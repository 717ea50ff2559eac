/**
 * Golden corpus replay (seed 004): every case of test/golden/manifest.json against a fresh
 * `wiregen serve golden --stdio [--handlers X] [--notifications]` process (test/helpers/golden.ts), its
 * response compared with the committed one as parsed JSON, with JSON inside strings canonical and compared
 * byte for byte. `GOLDEN_ACCEPT=1` writes the responses that are missing (never one that exists); each must
 * then be checked by hand against seed 004, seed 001 and the schema before it is committed.
 *
 * The legacy responses are the anchor of "2026-07-28 work leaves the handshake era unchanged": the legacy
 * stability test fails, saying so, when any committed legacy response differs from the current output.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { checkOrAccept, committedResponse, loadManifest, runCase, type CaseRun, type GoldenCase } from '../helpers/golden.ts';

const manifest = loadManifest();
const legacy = manifest.cases.filter((c) => c.era === 'legacy');
const modern = manifest.cases.filter((c) => c.era === 'modern');

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

/** One server run per case, shared by the per-case tests and the legacy stability test. */
const runs = new Map<string, Promise<CaseRun>>();
function run(c: GoldenCase): Promise<CaseRun> {
  let r = runs.get(c.name);
  if (!r) runs.set(c.name, (r = slot(() => runCase(manifest, c))));
  return r;
}

describe.concurrent('golden corpus replays against serve golden --stdio (seed 004)', () => {
  for (const c of [...legacy, ...modern])
    it(`${c.name} (${c.category}, ${c.handlers}${c.notifications ? ', notifications' : ''})`, async () => {
      const failure = checkOrAccept(c, await run(c));
      if (failure) throw new Error(failure);
    });
});

describe('legacy stability', () => {
  it(`no committed legacy response changed (${legacy.length} handshake-era cases)`, async () => {
    const committed = legacy.filter((c) => committedResponse(c) !== undefined); // the others fail as their own case
    const results = await Promise.all(committed.map(async (c) => checkOrAccept(c, await run(c))));
    const changed = results.filter((failure): failure is string => failure !== undefined);
    expect(changed, `legacy output changed: the handshake era must answer as the committed corpus does\n${changed.join('\n\n')}`).toEqual([]);
  }, 600_000); // run alone (-t), it plays every legacy case itself
});
