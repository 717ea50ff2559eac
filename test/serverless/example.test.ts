/**
 * @module test/serverless/example — examples/a2a-worker (an A2A agent as a Worker, its tasks in a Durable Object)
 * compiles: typechecked against the runtime's sources (test/serverless/tsconfig.example.json: the repository's
 * settings, unused names refused). It runs on workerd in test/serverless/workerd.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/proc.ts';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('examples/a2a-worker', () => {
  it('typechecks', () => {
    let out = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'test', 'serverless', 'tsconfig.example.json')], { encoding: 'utf8', timeout: 120_000 });
    } catch (err) {
      out = String((err as { stdout?: string }).stdout ?? err);
    }
    expect(out).toBe('');
  }, 150_000);
});
