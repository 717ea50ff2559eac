/**
 * A full generate's validators compile on worker threads as well as on the main thread
 * (generator/workers/validator-threads.ts). Whoever compiles a pin, the output must be the same; a thread that
 * fails to start, dies holding a pin, or is stopped loses nothing; an error in a thread is the same error.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { compileHere, ValidatorThreads } from '../../generator/workers/validator-threads.ts';
import { emitValidators } from '../../generator/emit/validators/index.ts';
import { loadAndCheck } from '../../generator/generate.ts';
import type { PinPlan } from '../../generator/plan/index.ts';

const { plans } = loadAndCheck(createContext({ log: () => {} }));
const plan = (id: string) => plans.find((p) => p.id === id)!;
/** Two of the smaller pins, for the cases that are about the threads rather than the output. */
const small = [plan('a2a-1.0'), plan('mcp-ext-tasks')];

const dir = mkdtempSync(join(tmpdir(), 'wiregen-validator-threads-'));
/** A thread module written for one test. */
function workerFile(name: string, source: string): URL {
  const path = join(dir, name);
  writeFileSync(path, source);
  return pathToFileURL(path);
}

const open: ValidatorThreads[] = [];
function threads(list: readonly PinPlan[], options: ConstructorParameters<typeof ValidatorThreads>[1]): ValidatorThreads {
  const made = new ValidatorThreads(list, options);
  open.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()));
});

describe('validator threads', () => {
  it('a thread compiles every pin to what the main thread compiles', async () => {
    const pool = threads(plans, { threads: 1 });
    expect(pool.running).toBe(1);
    await pool.threadsDone();
    for (const p of plans) {
      const fromThread = await pool.take(p);
      expect(pool.compiledBy.get(p), p.id).toBe(2);
      const here = emitValidators(p);
      expect(fromThread.js === here.js, `${p.id} validators.js`).toBe(true);
      expect(fromThread.fastJs === here.fastJs, `${p.id} validators.fast.js`).toBe(true);
      expect(fromThread.dts, `${p.id} validators.d.ts`).toBe(here.dts);
    }
  }, 120_000);

  it('the main thread compiles a pin no thread has claimed yet, and each pin once', async () => {
    const pool = threads(small, { threads: 1 });
    // Claimed at once, before the thread has even loaded its modules.
    const first = await pool.take(small[0]!);
    expect(pool.compiledBy.get(small[0]!)).toBe('main');
    expect(first.dts).toBe(emitValidators(small[0]!).dts);
    await pool.take(small[1]!);
    await pool.threadsDone();
    expect([...pool.compiledBy.keys()].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...small].sort((a, b) => a.id.localeCompare(b.id)));
  }, 60_000);

  it('starts no thread for fewer than two pins, and compiles a plan it was not given', async () => {
    const pool = threads([small[0]!], {});
    expect(pool.running).toBe(0);
    await pool.take(small[0]!);
    expect(pool.compiledBy.get(small[0]!)).toBe('main');
    const other = await pool.take(small[1]!);
    expect(other.dts).toBe(emitValidators(small[1]!).dts);
  }, 60_000);

  it('a thread that fails to start is reported, and its pins compile on the main thread', async () => {
    const errors: string[] = [];
    const workerUrl = workerFile('fails.mjs', "throw new Error('this thread cannot start');\n");
    const pool = threads(small, { threads: 1, workerUrl, onThreadError: (err) => errors.push(err.message) });
    await pool.threadsDone();
    expect(errors).toEqual(['this thread cannot start']);
    for (const p of small) {
      await pool.take(p);
      expect(pool.compiledBy.get(p), p.id).toBe('main');
    }
  }, 60_000);

  it('a pin a thread claimed and never answered for compiles on the main thread', async () => {
    // Claims the last pin, as the real thread does first, then ends without a word.
    const workerUrl = workerFile(
      'dies.mjs',
      `import { workerData } from 'node:worker_threads';
if (Atomics.compareExchange(new Int32Array(workerData.claims), workerData.plans.length - 1, 0, workerData.tag) !== 0) throw new Error('not claimed');
process.exit(3);
`,
    );
    const errors: Error[] = [];
    const pool = threads(small, { threads: 1, workerUrl, onThreadError: (err) => errors.push(err) });
    const last = small[1]!;
    await pool.threadsDone();
    expect(errors).toEqual([]);
    // Compiled when the thread ended, before anyone asked.
    expect(pool.compiledBy.get(last)).toBe('main');
    expect((await pool.take(last)).dts).toBe(emitValidators(last).dts);
  }, 60_000);

  it('a pin a stopped thread had claimed compiles on the main thread when taken', async () => {
    const signal = join(dir, 'claimed');
    const workerUrl = workerFile(
      'hangs.mjs',
      `import { writeFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
if (Atomics.compareExchange(new Int32Array(workerData.claims), workerData.plans.length - 1, 0, workerData.tag) === 0) writeFileSync(${JSON.stringify(signal)}, '');
setInterval(() => {}, 1000);
`,
    );
    const pool = threads(small, { threads: 1, workerUrl });
    const deadline = Date.now() + 20_000;
    while (!existsSync(signal) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(signal)).toBe(true);
    await pool.close();
    expect(pool.running).toBe(0);
    expect(pool.compiledBy.size).toBe(0); // not compiled on the thread's end: close() wants none of the work
    expect((await pool.take(small[1]!)).dts).toBe(emitValidators(small[1]!).dts);
    expect(pool.compiledBy.get(small[1]!)).toBe('main');
  }, 60_000);

  it("an error in a thread's compilation is the main thread's error", async () => {
    // A validator named like the code's own namespace: emitValidators refuses it (emit/validators/index.ts).
    const bad: PinPlan = { ...small[0]!, validators: small[0]!.validators.map((v, i) => (i === 0 ? { ...v, name: 'fastSet' } : v)) };
    const here = await compileHere(bad).then(
      () => '',
      (err: Error) => err.message,
    );
    expect(here).toMatch(/would clash/);
    const pool = threads([small[1]!, bad], { threads: 1 });
    await pool.threadsDone();
    expect(pool.compiledBy.has(bad)).toBe(false);
    await expect(pool.take(bad)).rejects.toThrow(here);
  }, 60_000);
});
