/**
 * `npm run conformance`: runs the official runner's server leg (`--requirements` 2026-07-28 and 2025-11-25,
 * then `--suite all`) against the `conformance` fixture and writes the results tables into README.md, between
 * the conformance markers, from the runner's checks.json files, with the expected SKIPPED scenarios and why. `--check` compares instead of writing (exit 1 when the README is stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/project.ts';
import { EXPECTED_SKIPPED } from './expected.ts';
import { runnerPaths, runServerLeg, startFixture, tally, type ScenarioResult, type Selection } from './harness.ts';

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
  const fixture = await startFixture('conformance', 30_000, ['--resumable']);
  const sections: string[] = [];
  try {
    for (const [label, selection] of SELECTIONS) {
      process.stderr.write(`running ${label}…\n`);
      const { results } = await runServerLeg(fixture.url, selection);
      sections.push(table(label, results));
    }
  } finally {
    await fixture.stop();
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
  const readmePath = join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`README.md has no conformance markers (${BEGIN} … ${END})`);
  const next = readme.slice(0, start) + block + readme.slice(end + END.length);
  if (check) {
    if (next !== readme) {
      process.stderr.write('README.md conformance table is stale: run npm run conformance\n');
      return 1;
    }
    return 0;
  }
  writeFileSync(readmePath, next);
  process.stderr.write('README.md conformance table written\n');
  return 0;
}

process.exitCode = await main();
