/**
 * @module test/soak/harness/chart — the soak run's SVG chart, drawn by hand (no chart library): one panel per
 * metric stacked vertically, time (s since the first sample) on x, one polyline per process, the end of the
 * warm-up as a dashed line. Below the judged metrics, two panels of what is reported only: RSS split into
 * anonymous and file-backed pages per process (dashed: file-backed), and the agent's SQLite database and WAL
 * sizes, so a reader sees which memory moves and whether it follows the database file.
 */
import type { ProcessSample } from './server.ts';
import { format, METRICS, MIB, type Metric, type ProcessRun } from './verdict.ts';

const WIDTH = 720;
const PANEL = 150;
const GAP = 46;
const LEFT = 70;
const RIGHT = 120;
const TOP = 40;
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];
const TITLES: Record<Metric, string> = {
  rss: 'RSS (MiB)',
  heapUsed: 'heapUsed (MiB)',
  handles: 'active handles',
  fds: 'open file descriptors',
};

/** A panel below the judged metrics: its title and, per process, the lines it draws (in MiB). */
interface ExtraPanel {
  readonly title: string;
  readonly lines: readonly { readonly key: keyof ProcessSample; readonly label: string; readonly dashed: boolean }[];
}
const EXTRA: readonly ExtraPanel[] = [
  {
    title: 'RSS: anonymous / file-backed, dashed (MiB; reported, not judged)',
    lines: [
      { key: 'rssAnon', label: 'anon', dashed: false },
      { key: 'rssFile', label: 'file', dashed: true },
    ],
  },
  {
    title: "agent's SQLite database / WAL, dashed (MiB; reported, not judged)",
    lines: [
      { key: 'dbBytes', label: 'db', dashed: false },
      { key: 'walBytes', label: 'wal', dashed: true },
    ],
  },
];

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const n = (v: number) => v.toFixed(1);

/** The chart of `processes`' samples; `warmUpEnd` in ms since the epoch. */
export function chartSvg(processes: readonly ProcessRun[], warmUpEnd: number, title: string): string {
  const all = processes.flatMap((p) => p.samples);
  const t0 = Math.min(...all.map((s) => s.t));
  const t1 = Math.max(t0 + 1, ...all.map((s) => s.t));
  const plotW = WIDTH - LEFT - RIGHT;
  const x = (t: number) => LEFT + ((t - t0) / (t1 - t0)) * plotW;
  const height = TOP + (METRICS.length + EXTRA.length) * (PANEL + GAP);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="${LEFT}" y="22" font-size="14" font-weight="bold">${xmlText(title)}</text>`,
  ];
  METRICS.forEach((metric, index) => {
    const top = TOP + index * (PANEL + GAP) + 16;
    const scale = metric === 'rss' || metric === 'heapUsed' ? MIB : 1;
    const values = all.map((s) => s[metric] / scale);
    const lo = Math.min(0, ...values);
    const hi = Math.max(lo + 1, ...values) * 1.05;
    const y = (v: number) => top + PANEL - ((v - lo) / (hi - lo)) * PANEL;
    out.push(`<text x="${LEFT}" y="${top - 6}" font-weight="bold">${TITLES[metric]}</text>`);
    out.push(`<rect x="${LEFT}" y="${top}" width="${plotW}" height="${PANEL}" fill="none" stroke="#999"/>`);
    for (let k = 0; k <= 4; k++) {
      const v = lo + ((hi - lo) * k) / 4;
      out.push(`<line x1="${LEFT}" x2="${LEFT + plotW}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="#eee"/>`);
      out.push(`<text x="${LEFT - 6}" y="${n(y(v) + 4)}" text-anchor="end">${v.toFixed(scale === 1 && hi < 10 ? 1 : 0)}</text>`);
    }
    for (let k = 0; k <= 5; k++) {
      const t = t0 + ((t1 - t0) * k) / 5;
      out.push(`<text x="${n(x(t))}" y="${top + PANEL + 14}" text-anchor="middle">${((t - t0) / 1000).toFixed(0)} s</text>`);
    }
    out.push(`<line x1="${n(x(warmUpEnd))}" x2="${n(x(warmUpEnd))}" y1="${top}" y2="${top + PANEL}" stroke="#888" stroke-dasharray="4 3"/>`);
    processes.forEach((p, i) => {
      const colour = COLOURS[i % COLOURS.length]!;
      const points = p.samples.map((s) => `${n(x(s.t))},${n(y(s[metric] / scale))}`).join(' ');
      out.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${points}"/>`);
      const last = p.samples.at(-1);
      const label = last ? `${p.name} ${format(metric, last[metric])}` : p.name;
      out.push(`<text x="${LEFT + plotW + 8}" y="${top + 14 + i * 16}" fill="${colour}">${xmlText(label)}</text>`);
    });
  });
  EXTRA.forEach((panel, k) => {
    const top = TOP + (METRICS.length + k) * (PANEL + GAP) + 16;
    const series = processes.flatMap((p) =>
      panel.lines.map((line) => ({
        p,
        line,
        points: p.samples.flatMap((s) => {
          const v = s[line.key];
          return typeof v === 'number' ? [{ t: s.t, v: v / MIB }] : [];
        }),
      })),
    );
    const values = series.flatMap((s) => s.points.map((pt) => pt.v));
    const hi = Math.max(1, ...values) * 1.05;
    const y = (v: number) => top + PANEL - (v / hi) * PANEL;
    out.push(`<text x="${LEFT}" y="${top - 6}" font-weight="bold">${xmlText(panel.title)}</text>`);
    out.push(`<rect x="${LEFT}" y="${top}" width="${plotW}" height="${PANEL}" fill="none" stroke="#999"/>`);
    for (let j = 0; j <= 4; j++) {
      const v = (hi * j) / 4;
      out.push(`<line x1="${LEFT}" x2="${LEFT + plotW}" y1="${n(y(v))}" y2="${n(y(v))}" stroke="#eee"/>`);
      out.push(`<text x="${LEFT - 6}" y="${n(y(v) + 4)}" text-anchor="end">${v.toFixed(0)}</text>`);
    }
    for (let j = 0; j <= 5; j++) {
      const t = t0 + ((t1 - t0) * j) / 5;
      out.push(`<text x="${n(x(t))}" y="${top + PANEL + 14}" text-anchor="middle">${((t - t0) / 1000).toFixed(0)} s</text>`);
    }
    out.push(`<line x1="${n(x(warmUpEnd))}" x2="${n(x(warmUpEnd))}" y1="${top}" y2="${top + PANEL}" stroke="#888" stroke-dasharray="4 3"/>`);
    let row = 0;
    for (const { p, line, points } of series) {
      if (!points.length) continue;
      const colour = COLOURS[processes.indexOf(p) % COLOURS.length]!;
      const dash = line.dashed ? ' stroke-dasharray="5 3"' : '';
      const coords = points.map((pt) => `${n(x(pt.t))},${n(y(pt.v))}`).join(' ');
      out.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5"${dash} points="${coords}"/>`);
      const label = `${p.name} ${line.label} ${points.at(-1)!.v.toFixed(1)}MiB`;
      out.push(`<text x="${LEFT + plotW + 8}" y="${top + 14 + row++ * 16}" fill="${colour}">${xmlText(label)}</text>`);
    }
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
