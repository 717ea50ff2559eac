/**
 * `npm run conformance`: runs the official runner's server leg (2026-07-28 and 2025-11-25) against the
 * `conformance` fixture and writes the results table into README.md, between the conformance markers, from
 * the runner's checks.json files. `--check` compares instead of writing (exit 1 when the README is stale).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/project.ts';
import { runnerPaths, runServerLeg, startFixture, tally, type ScenarioResult } from './harness.ts';

const BEGIN = '<!-- conformance:begin (written by npm run conformance; do not edit) -->';
const END = '<!-- conformance:end -->';
const REQUIREMENTS = ['2026-07-28', '2025-11-25'];

function table(requirements: string, results: readonly ScenarioResult[]): string {
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
  return [
    `**--requirements ${requirements}**: ${clean}/${scored.length} scored scenarios with no FAILURE, WARNING or SKIPPED.`,
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
  const fixture = await startFixture('conformance');
  const sections: string[] = [];
  try {
    for (const requirements of REQUIREMENTS) {
      process.stderr.write(`running --requirements ${requirements}…\n`);
      const { results } = await runServerLeg(fixture.url, requirements);
      sections.push(table(requirements, results));
    }
  } finally {
    await fixture.stop();
  }
  const block = [
    BEGIN,
    `Runner \`@modelcontextprotocol/conformance@${version}\`, server leg, against \`wiregen serve conformance --http 0\`.`,
    '',
    sections.join('\n\n'),
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
