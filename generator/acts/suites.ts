/**
 * @module acts/suites — the shipped ACTS suites (generator/acts/suites/, copied from the A2A project, see
 * PROVENANCE.md there): found beside this module, in the sources (tsx) and in the package's dist alike,
 * and chosen by `--suite` (a file, a suite id, or a shipped file's name without `.acts.yaml`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.ts';
import { loadActs } from './format/load.ts';
import type { Suite } from './format/model.ts';

/** The folder of the shipped suites. */
export const SUITES_DIR = fileURLToPath(new URL('./suites/', import.meta.url));

/** Every shipped suite (suite.acts.yaml, the master file, and what it includes). */
export function shippedSuites(): Suite[] {
  return loadActs(join(SUITES_DIR, 'suite.acts.yaml'));
}

/** The suites `--suite` names (all shipped suites when none is named); an unknown name is bad input. */
export function selectSuites(names: readonly string[], cwd: string = process.cwd()): Suite[] {
  if (names.length === 0) return shippedSuites();
  const out: Suite[] = [];
  let shipped: Suite[] | undefined;
  for (const name of names) {
    const asFile = resolve(cwd, name);
    if (/\.(ya?ml|json)$/.test(name) && existsSync(asFile)) {
      out.push(...loadActs(name, cwd));
      continue;
    }
    const stem = join(SUITES_DIR, `${name}.acts.yaml`);
    if (existsSync(stem)) {
      out.push(...loadActs(stem));
      continue;
    }
    shipped ??= shippedSuites();
    const found = shipped.filter((s) => s.id === name);
    if (found.length === 0) {
      const files = readdirSync(SUITES_DIR)
        .filter((f) => f.endsWith('.acts.yaml'))
        .map((f) => f.replace('.acts.yaml', ''));
      throw new InputError([
        {
          file: name,
          message: `no such file, shipped suite file or suite id; suite ids: ${shipped.map((s) => s.id).join(', ')}; files: ${files.join(', ')}`,
        },
      ]);
    }
    out.push(...found);
  }
  // A suite named twice runs once.
  return [...new Map(out.map((s) => [`${s.file}#${s.id}`, s])).values()];
}
