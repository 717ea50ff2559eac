/**
 * A full generate's worker threads (prettier's and the validators') belong to the run (generator/workers/):
 * started with it, and every one of them ended when it returns, whether it succeeded or failed.
 */
import { describe, expect, it, vi } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { generateAll } from '../../generator/generate.ts';
import { InputError } from '../../generator/errors.ts';
import { Workers } from '../../generator/workers/index.ts';

/** Every worker thread the generator starts, while it runs, and how many were started in all. */
const threads = vi.hoisted(() => ({ live: new Set<object>(), started: 0 }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class Tracked extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      threads.live.add(this);
      threads.started++;
      this.once('exit', () => threads.live.delete(this));
    }
  }
  return { ...real, Worker: Tracked };
});

describe("a generate's worker threads", () => {
  it('run while it runs and are all ended when it returns', async () => {
    const before = threads.started;
    // Two pins, so that validator threads start as well as prettier's.
    const { reports } = await generateAll(createContext({ log: () => {}, only: ['a2a-1.0', 'mcp-ext-tasks'] }));
    expect(reports.map((r) => r.id).sort()).toEqual(['a2a-1.0', 'mcp-ext-tasks']);
    expect(threads.started - before).toBeGreaterThanOrEqual(2);
    expect(threads.live.size).toBe(0);
  }, 120_000);

  it('are all ended when the run fails', async () => {
    const before = threads.started;
    await expect(generateAll(createContext({ log: () => {}, only: ['mcp-1999-01-01'] }))).rejects.toThrow(InputError);
    expect(threads.started - before).toBeGreaterThanOrEqual(1);
    expect(threads.live.size).toBe(0);
  }, 60_000);

  it('format as the main thread does, and refuse work once closed', async () => {
    const workers = new Workers();
    const text = 'const  a = {b:1}\n';
    await expect(workers.format(text, { parser: 'typescript' })).resolves.toBe('const a = { b: 1 };\n');
    await workers.close();
    expect(threads.live.size).toBe(0);
    await expect(workers.format(text, { parser: 'typescript' })).rejects.toThrow(/finished run/);
  }, 60_000);
});
