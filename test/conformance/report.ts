/**
 * `npm run conformance`: runs the official runner's server leg (`--requirements` 2026-07-28 and 2025-11-25,
 * then `--suite all`) against the `conformance` sample and writes the results tables into docs/conformance.md,
 * between the conformance markers, from the runner's checks.json files, with the expected SKIPPED scenarios and
 * why. `--check` compares instead of writing (exit 1 when the page is stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/project.ts';
import { EXPECTED_SKIPPED } from './expected.ts';
import { runnerPaths, runServerLeg, startSample, tally, type ScenarioResult, type Selection } from './harness.ts';

/** The page the tables are written into (repository-relative). */
const PAGE = 'docs/conformance.md';
const BEGIN = '<!-- conformance:begin (written by npm run conformance; do not edit) -->';
const END = '<!-- conformance:end -->';
const SELECTIONS: [string, Selection][] = [
  ['--requirements 2026-07-28', '2026-07-28'],
  ['--requirements 2025-11-25', '2025-11-25'],
  ['--suite all', { suite: 'all', specVersion: '' }],
];

function table(label: string, results: readonly ScenarioResult[]): string {
  const rows = [...results].sort((a, b) => Number(b.scored) - Number(a.scored) || a.scenario.localeCompare(b.scenario));
  const total = { SUCCESS: 0, WARNING: 0, FAILURE: 0, SKIPPED: 0, INFO: 0 };
  const lines = rows.map((r) => {
    const t = tally(r);
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += t[k];
    return `| ${r.scenario} | ${r.scored ? 'scored' : 'not scored'} | ${t.SUCCESS} | ${t.WARNING} | ${t.FAILURE} | ${t.SKIPPED} | ${t.INFO} |`;
  });
  const scored = rows.filter((r) => r.scored);
  const clean = scored.filter((r) => {
    const t = tally(r);
    return t.FAILURE + t.WARNING + t.SKIPPED === 0;
  }).length;
  const failing = rows.filter((r) => tally(r).FAILURE > 0).length;
  const summary = scored.length
    ? `${clean}/${scored.length} scored scenarios with no FAILURE, WARNING or SKIPPED`
    : `${rows.length - failing}/${rows.length} scenarios without FAILURE`;
  return [
    `**${label}**: ${summary}.`,
    '',
    '| scenario | | SUCCESS | WARNING | FAILURE | SKIPPED | INFO |',
    '|---|---|---|---|---|---|---|',
    ...lines,
    `| **total** | | ${total.SUCCESS} | ${total.WARNING} | ${total.FAILURE} | ${total.SKIPPED} | ${total.INFO} |`,
  ].join('\n');
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const { runner } = runnerPaths();
  const version = (JSON.parse(readFileSync(join(runner, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  const sample = await startSample('conformance', 30_000, ['--resumable']);
  const sections: string[] = [];
  try {
    for (const [label, selection] of SELECTIONS) {
      process.stderr.write(`running ${label}…\n`);
      const { results } = await runServerLeg(sample.url, selection);
      sections.push(table(label, results));
    }
  } finally {
    await sample.stop();
  }
  const block = [
    BEGIN,
    `Runner \`@modelcontextprotocol/conformance@${version}\`, server leg, against \`wiregen serve conformance --http 0 --resumable\`.`,
    '',
    sections.join('\n\n'),
    '',
    'Expected SKIPPED checks (test/conformance/expected.ts):',
    '',
    ...Object.entries(EXPECTED_SKIPPED).map(([scenario, reason]) => `- ${scenario}: ${reason}`),
    END,
  ].join('\n');
  const pagePath = join(ROOT, PAGE);
  const page = readFileSync(pagePath, 'utf8');
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${PAGE} has no conformance markers (${BEGIN} … ${END})`);
  const next = page.slice(0, start) + block + page.slice(end + END.length);
  if (check) {
    if (next !== page) {
      process.stderr.write(`${PAGE} conformance tables are stale: run npm run conformance\n`);
      return 1;
    }
    return 0;
  }
  writeFileSync(pagePath, next);
  process.stderr.write(`${PAGE} conformance tables written\n`);
  return 0;
}

process.exitCode = await main();
