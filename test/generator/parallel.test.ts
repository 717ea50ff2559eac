/**
 * Pins emitted on worker threads (emit/pool.ts) give the files the main thread gives, in the same order, and
 * equal to the committed generated/; a failure on a thread surfaces as the error the main thread throws.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { emitPin } from '../../generator/emit/index.ts';
import { createEmitPool, reviveError, serializeError } from '../../generator/emit/pool.ts';
import { formatDiagnostic, InputError } from '../../generator/errors.ts';
import { diffTree, generateAll, loadAndCheck } from '../../generator/generate.ts';
import type { PinPlan } from '../../generator/plan/index.ts';

const ONLY = ['mcp-2024-11-05', 'a2a-1.0', 'golden'];

describe('pins on worker threads', () => {
  it('emit the files the main thread emits, in the same order, equal to generated/', async () => {
    const ctx = createContext({ log: () => {}, only: ONLY });
    const threaded = await generateAll(ctx, { threads: 2 });
    const inThread = await generateAll(ctx, { threads: 0 });
    expect([...threaded.files.keys()]).toEqual([...inThread.files.keys()]);
    for (const [path, text] of inThread.files) expect(threaded.files.get(path), path).toBe(text);
    expect(threaded.reports.map((r) => [r.id, r.files])).toEqual(inThread.reports.map((r) => [r.id, r.files]));
    // The committed tree is what the generator wrote before threads existed.
    for (const folder of ['mcp-2024-11-05', 'a2a-1.0', 'fixtures/golden']) {
      const sub = new Map([...threaded.files].filter(([p]) => p.startsWith(`${folder}/`)).map(([p, t]) => [p.slice(folder.length + 1), t]));
      expect(sub.size, folder).toBeGreaterThan(0);
      expect(diffTree(`${ctx.options.generatedDir}/${folder}`, sub), folder).toEqual([]);
    }
  });

  it('log the pins in pin order, after the specs', async () => {
    const lines: string[] = [];
    await generateAll(createContext({ log: (l) => lines.push(l), only: ['a2a-1.0', 'mcp-2024-11-05', 'golden'] }), { threads: 2 });
    expect(lines.map((l) => l.replace(/ \([\d.]+ s\)$/, ''))).toEqual([
      'fixtures/golden: 2 files',
      'mcp-2024-11-05: 79 defs, 24 methods, 10 files',
      'a2a-1.0: 50 defs, 11 methods, 12 files',
    ]);
  });
});

describe('a failure on a thread', () => {
  const pool = createEmitPool(1);
  afterAll(() => pool.close());
  const { plans } = loadAndCheck(createContext({ log: () => {}, only: ['mcp-2024-11-05'] }));
  // A validator whose $def the document lacks: ajv cannot compile it, on either thread.
  const broken: PinPlan = {
    ...plans[0]!,
    validators: [...plans[0]!.validators, { name: 'Nowhere', ref: { def: 'Nowhere', tokens: [] }, type: 'Nowhere' }],
  };

  it('rejects with the error the main thread throws', async () => {
    const here = await emitPin(broken).then(
      () => undefined,
      (e: Error) => e,
    );
    const there = await pool.emit(broken).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(here).toBeInstanceOf(Error);
    expect(there).toBeInstanceOf(Error);
    expect([there!.name, there!.message]).toEqual([here!.name, here!.message]);
  });

  it('leaves the thread serving the next job', async () => {
    const { files } = await pool.emit(plans[0]!);
    expect([...files.keys()]).toEqual([...(await emitPin(plans[0]!)).keys()]);
  });

  it('an InputError crosses as the same InputError: its one-line diagnostics and exit code', () => {
    const diagnostics = [{ file: 'schemas/manifest/mcp-2024-11-05.yaml', pointer: '/methods/ping', line: 3, column: 5, message: 'names $def Nope' }];
    const revived = reviveError(serializeError(new InputError(diagnostics, 2)));
    expect(revived).toBeInstanceOf(InputError);
    expect((revived as InputError).diagnostics.map(formatDiagnostic)).toEqual([
      'schemas/manifest/mcp-2024-11-05.yaml:3:5 /methods/ping: names $def Nope',
    ]);
    expect((revived as InputError).exitCode).toBe(2);
  });

  it('a closed pool rejects its jobs instead of hanging', async () => {
    const closing = createEmitPool(1);
    const job = closing.emit(plans[0]!).then(
      () => 'emitted',
      (e: Error) => e.message,
    );
    await closing.close();
    expect(await job).toMatch(/closed/);
    await expect(closing.emit(plans[0]!)).rejects.toThrow(/closed/);
  });
});
