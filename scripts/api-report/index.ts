/**
 * @module scripts/api-report — the committed API report: api/<package>.api.md for every workspace package,
 * made from the sources (`reports`), compared with what is committed (`compareReports`, which `npm test`
 * runs through test/api/report.test.ts), or written (`writeReports`, `npm run api -- --write`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineDiff } from './diff.ts';
import { reportFile } from './packages.ts';
import { ACCEPT, renderReport } from './render.ts';
import { type PackageSurface, readSurfaces } from './surface.ts';

export { ACCEPT } from './render.ts';

/** The folder of the reports, relative to the repository root. */
export const API_DIR = 'api';

/** Every report, by file name (sorted), as the sources make it now. */
export function reports(root: string, surfaces: readonly PackageSurface[] = readSurfaces(root)): Map<string, string> {
  const out = new Map<string, string>();
  for (const surface of surfaces) {
    const file = reportFile(surface.pkg.name);
    if (out.has(file)) throw new Error(`two packages would write ${API_DIR}/${file}: name one of them differently`);
    out.set(file, renderReport(surface));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function committed(root: string): Map<string, string> {
  const dir = join(root, API_DIR);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.api.md')) : [];
  return new Map(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/**
 * How the committed reports differ from the surface now: one paragraph per differing file (its first
 * differing lines), then the command that accepts the change. Empty when they agree.
 */
export function compareReports(root: string, now: Map<string, string> = reports(root)): string {
  const before = committed(root);
  const problems: string[] = [];
  for (const [file, text] of now) {
    const old = before.get(file);
    if (old === undefined) problems.push(`${API_DIR}/${file} is missing (a new package?)`);
    else if (old !== text) problems.push(`${API_DIR}/${file} differs from the surface now:\n${lineDiff(old, text)}`);
  }
  for (const file of before.keys()) if (!now.has(file)) problems.push(`${API_DIR}/${file} reports no workspace package (one removed or renamed?)`);
  if (!problems.length) return '';
  return [
    'The public API changed: the committed reports in api/ no longer match the sources.',
    ...problems,
    `If the change is intended, run \`${ACCEPT}\` and commit api/ with it.`,
  ].join('\n\n');
}

/** Writes every report and removes the reports of packages that are gone; returns the files that changed. */
export function writeReports(root: string, now: Map<string, string> = reports(root)): string[] {
  const dir = join(root, API_DIR);
  mkdirSync(dir, { recursive: true });
  const before = committed(root);
  const changed: string[] = [];
  for (const [file, text] of now) {
    if (before.get(file) === text) continue;
    writeFileSync(join(dir, file), text);
    changed.push(file);
  }
  for (const file of before.keys()) {
    if (now.has(file)) continue;
    rmSync(join(dir, file));
    changed.push(file);
  }
  return changed;
}
