/**
 * @module golden/vitest — `wiregen/golden/vitest`: a corpus as a vitest suite, one test per case, failing with
 * the JSON-pointer differences (one line each). vitest is an optional peer dependency, needed only here.
 *
 * ```ts
 * import { goldenSuite } from 'wiregen/golden/vitest';
 * goldenSuite('golden', { command: ['node', 'dist/main.js'] });
 * ```
 */
import { beforeAll, describe, it } from 'vitest';
import { checkCorpus, type GoldenCaseResult, type GoldenOptions, type GoldenServer } from './index.ts';
import { loadCorpus } from './corpus.ts';
import { resolve } from 'node:path';

/** Options of {@link goldenSuite}: those of `checkCorpus` but the server, and the suite's name. */
export interface GoldenSuiteOptions extends Omit<GoldenOptions, 'server'> {
  /** The `describe` title. Default `golden <corpus dir>`. */
  readonly name?: string;
  /** How long the whole corpus may take, in ms (vitest's hook timeout). Default 120 000. */
  readonly suiteTimeoutMs?: number;
}

/** The message a failed case's test throws: its differences (or failure) one per line. */
export function failureMessage(result: GoldenCaseResult): string {
  return [`${result.name}: ${result.status}`, ...result.lines.map((l) => `  ${l}`)].join('\n');
}

/**
 * Declares a `describe` block with one `it` per case of the corpus at `corpusDir`: the corpus is played once
 * (a server per case unless `share`), then each test reports its case.
 */
export function goldenSuite(corpusDir: string, server: GoldenServer, options: GoldenSuiteOptions = {}): void {
  const cwd = options.cwd ?? process.cwd();
  const corpus = loadCorpus(resolve(cwd, corpusDir), { cwd });
  const { name, suiteTimeoutMs, ...golden } = options;
  describe(name ?? `golden ${corpusDir}`, () => {
    let results = new Map<string, GoldenCaseResult>();
    beforeAll(async () => {
      const all = await checkCorpus({ ...golden, corpus: corpusDir, server, cwd });
      results = new Map(all.map((r) => [r.name, r]));
    }, suiteTimeoutMs ?? 120_000);
    for (const c of corpus.cases)
      it(c.name, () => {
        const result = results.get(c.name);
        if (result === undefined) throw new Error(`${c.name}: not played`);
        if (result.status !== 'pass') throw new Error(failureMessage(result));
      });
  });
}
