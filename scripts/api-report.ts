/**
 * npm run api: checks the committed API reports (api/<package>.api.md) against the public surface of every
 * workspace package's entry points and prints the first differing lines; exits 1 when they differ.
 * `npm run api -- --write` rewrites them (commit them with the change that altered the surface).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_DIR, compareReports, reports, writeReports } from './api-report/index.ts';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--write');
if (unknown.length) {
  process.stderr.write(`api: unknown argument ${unknown[0]} (the one option is --write)\n`);
  process.exit(2);
}
const t0 = performance.now();
const now = reports(root);
const seconds = ((performance.now() - t0) / 1000).toFixed(1);
if (args.includes('--write')) {
  const changed = writeReports(root, now);
  process.stdout.write(
    changed.length
      ? `api: wrote ${changed.map((f) => `${API_DIR}/${f}`).join(', ')} (${seconds} s)\n`
      : `api: ${now.size} reports unchanged (${seconds} s)\n`,
  );
} else {
  const problems = compareReports(root, now);
  if (problems) {
    process.stderr.write(`${problems}\n`);
    process.exit(1);
  }
  process.stdout.write(`api: ${now.size} reports match the sources (${seconds} s)\n`);
}
