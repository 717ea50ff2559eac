/**
 * @module test/soak/soak — the short soak run (test/soak/harness/run.ts; `npm run soak` is the long one): an MCP
 * server process and an A2A agent process under mixed traffic for 30 s; the report and a well-formed SVG
 * chart are written, every kind of operation ran without an error, the verdict passes. And the verdict
 * itself (ours): it fails on made-up samples that grow, a process that died, a request that failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSoak, summaryLine } from './harness/run.ts';
import type { ProcessSample } from './harness/server.ts';
import { KINDS } from './harness/traffic.ts';
import { fitLine, MIB, verdict } from './harness/verdict.ts';

/** Made-up samples every 2 s for `minutes`; each metric at `t` minutes from `at(t)`. */
function series(minutes: number, at: (t: number) => Omit<ProcessSample, 't'>): ProcessSample[] {
  return Array.from({ length: (minutes * 60) / 2 + 1 }, (_, i) => ({ t: 1_000_000 + i * 2000, ...at((i * 2) / 60) }));
}
const flat = (t: number) => ({ rss: 90 * MIB + (t % 0.1) * MIB, heapUsed: 15 * MIB, handles: 14, fds: 34 });

/** Checks an SVG is well-formed XML as far as a tag walk can tell: balanced elements, quoted attributes. */
function wellFormed(svg: string): string | undefined {
  const stack: string[] = [];
  const tags = svg.match(/<[^>]*>/g) ?? [];
  for (const tag of tags) {
    if (tag.startsWith('<?') || tag.startsWith('<!--')) continue;
    const close = /^<\/([\w:-]+)\s*>$/.exec(tag);
    if (close) {
      if (stack.pop() !== close[1]) return `unbalanced ${tag}`;
      continue;
    }
    const open = /^<([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>$/.exec(tag);
    if (!open) return `malformed tag ${tag.slice(0, 80)}`;
    if (!open[3]) stack.push(open[1]!);
  }
  if (stack.length) return `unclosed <${stack.join('>, <')}>`;
  const text = svg.replace(/<[^>]*>/g, '');
  if (/[<>]|&(?!(amp|lt|gt|quot|apos);)/.test(text)) return 'unescaped text';
  return undefined;
}

describe('soak verdict (ours: made-up samples)', () => {
  it('fits a least-squares line', () => {
    expect(fitLine([0, 1, 2, 3], [1, 3, 5, 7])).toEqual({ slope: 2, intercept: 1 });
  });

  it('passes flat series with noise', () => {
    const v = verdict([{ name: 'mcp', samples: series(10, flat) }], 0);
    expect(v.reasons).toEqual([]);
    expect(v.pass).toBe(true);
  });

  it('fails heapUsed growing 3 MiB a minute (24 MiB over the measured 8 minutes, bound 9.5 MiB)', () => {
    const v = verdict([{ name: 'a2a', samples: series(10, (t) => ({ ...flat(t), heapUsed: 15 * MIB + 3 * MIB * t })) }], 0);
    expect(v.pass).toBe(false);
    expect(v.processes['a2a']?.heapUsed?.pass).toBe(false);
    expect(v.processes['a2a']?.rss?.pass).toBe(true);
    expect(v.reasons.join()).toMatch(/a2a heapUsed grew/);
  });

  it('fails RSS growing past 10 % + 8 MiB, and passes it just below', () => {
    const grow = (perMinute: number) => series(10, (t) => ({ ...flat(0), rss: 100 * MIB + perMinute * MIB * t }));
    // measured window 8 minutes: bound 10 % of ~100 MiB + 8 MiB ≈ 18 MiB
    expect(verdict([{ name: 'mcp', samples: grow(3) }], 0).pass).toBe(false);
    expect(verdict([{ name: 'mcp', samples: grow(2) }], 0).pass).toBe(true);
  });

  it('fails handles or fds up by more than 20 at the end, not during warm-up', () => {
    const leak = series(10, (t) => ({ ...flat(t), fds: 34 + Math.floor(t * 4) }));
    expect(verdict([{ name: 'mcp', samples: leak }], 0).reasons.join()).toMatch(/^mcp fds grew 3\d \(bound 20\)$/);
    const warm = series(10, (t) => ({ ...flat(t), handles: t < 1.5 ? 80 : 14 }));
    expect(verdict([{ name: 'mcp', samples: warm }], 0).pass).toBe(true);
  });

  it('fails a process that died, a request that failed, too few samples', () => {
    expect(verdict([{ name: 'mcp', samples: series(10, flat), died: 'SIGKILL' }], 0).reasons).toEqual(['mcp died (SIGKILL)']);
    expect(verdict([{ name: 'mcp', samples: series(10, flat) }], 2).reasons).toEqual(['2 request(s) failed']);
    expect(verdict([{ name: 'mcp', samples: series(10, flat).slice(0, 2) }], 0).pass).toBe(false);
  });

  it('the SVG check rejects what is not well-formed', () => {
    expect(wellFormed('<svg><g></svg>')).toMatch(/unbalanced/);
    expect(wellFormed('<svg x=1></svg>')).toMatch(/malformed/);
    expect(wellFormed('<svg><text>a < b</text></svg>')).toBeDefined();
    expect(wellFormed('<svg><text>a &lt; b</text></svg>')).toBeUndefined();
  });
});

describe('npm run soak arguments', () => {
  const soak = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/soak.ts', ...args], { encoding: 'utf8', timeout: 30_000 });

  it('exits 2 with one line on bad arguments, 0 with the usage on --help', () => {
    for (const args of [['--minutes', '0'], ['--minutes', '1', '--seconds', '5'], ['--what'], ['--prefill-mib=-1'], ['--prefill-mib', '2.5']]) {
      const run = soak(...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^soak: [^\n]+\n$/);
    }
    const help = soak('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run soak -- \[--minutes/);
    expect(help.stdout).toMatch(/--prefill-mib N/);
  }, 60_000);
});

describe('soak run (short)', () => {
  it('two server processes under mixed traffic for 30 s: report, chart, no error, no growth', async () => {
    const out = await mkdtemp(join(tmpdir(), 'wiregen-soak-test-'));
    try {
      const result = await runSoak({ seconds: 30, concurrency: 8, prefillMib: 2, out });
      process.stderr.write(`${summaryLine(result)}\n`);
      expect(result.counts.firstErrors).toEqual([]);
      for (const kind of KINDS) expect(result.counts.done[kind], kind).toBeGreaterThan(5);
      expect(result.processes.map((p) => p.samples.length)).toEqual([expect.any(Number), expect.any(Number)]);
      for (const p of result.processes) expect(p.samples.length).toBeGreaterThanOrEqual(12);
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as { verdict: { pass: boolean } };
      expect(report.verdict.pass).toBe(true);
      const svg = await readFile(join(out, 'soak.svg'), 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(wellFormed(svg)).toBeUndefined();
      const linux = result.processes.every((p) => p.samples.every((s) => s.fds >= 0));
      // 4 judged panels × 2 processes; on Linux also anon and file-backed RSS × 2 processes, the agent's db and WAL
      expect(svg.match(/<polyline /g)).toHaveLength(linux ? 14 : 10);
      const [mcp, a2a] = result.processes;
      // The agent started on the prefilled store: its database and WAL already held 2 MiB at the first sample.
      expect(a2a!.samples[0]!.dbBytes! + a2a!.samples[0]!.walBytes!).toBeGreaterThanOrEqual(2 * MIB);
      expect(mcp!.samples.every((s) => s.dbBytes === undefined)).toBe(true);
      if (linux) {
        // RssAnon + RssFile (+ RssShmem, a few pages) is the RSS, read a moment apart.
        for (const s of [...mcp!.samples, ...a2a!.samples]) expect(Math.abs(s.rssAnon! + s.rssFile! - s.rss)).toBeLessThan(4 * MIB);
      }
      expect(result.verdict.reasons).toEqual([]);
      expect(summaryLine(result)).toMatch(/^soak PASS 30s: \d+ requests .*, 0 errors \| mcp: rss /);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});
