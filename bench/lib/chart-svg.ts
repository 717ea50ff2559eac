/**
 * @module bench/lib/chart-svg — one chart of bench/lib/chart.ts as a hand-written SVG: a title, then a panel per
 * metric, one horizontal bar per subject with its label above and its value after it, ours highlighted. The
 * same chart gives the same bytes (no timestamps, no locale, fixed number formatting), so the committed
 * bench/charts/*.svg can be checked against the results they come from. Accessible: `role="img"` with a
 * `<title>` and a `<desc>` listing every value (https://www.w3.org/TR/SVG2/struct.html#DescriptionAndTitleElements).
 */
import { type Chart, groupCharts, type Panel } from './chart.ts';
import type { Row } from './table.ts';

const WIDTH = 760;
const MARGIN = 16;
/** Room after the longest bar for its value. */
const VALUE_ROOM = 110;
const TITLE_H = 34;
const PANEL_HEAD_H = 26;
const LABEL_H = 15;
const BAR_H = 14;
const BAR_GAP = 9;
const PANEL_GAP = 12;
const OURS = '#d9480f';
const PEER = '#868e96';

/** `&`, `<`, `>`, `"` and `'` escaped for text and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Thousands separated by `,`, whatever the locale. */
function grouped(n: number): string {
  const [int, frac] = n.toString().split('.');
  const g = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? g : `${g}.${frac}`;
}

/** A value as the chart prints it: integers from 100 up, 1 decimal from 10, 2 below (3 below 1). */
export function fmtValue(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return 'not measured';
  const a = Math.abs(v);
  if (a >= 100) return grouped(Math.round(v));
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

/** A coordinate: at most one decimal, no `-0`. */
const px = (n: number): string => {
  const r = Math.round(n * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
};

const panelHeight = (p: Panel): number => PANEL_HEAD_H + p.bars.length * (LABEL_H + BAR_H + BAR_GAP) + PANEL_GAP;

function renderPanel(p: Panel, top: number): string[] {
  const out: string[] = [];
  const better = p.higherIsBetter ? 'higher is better' : 'lower is better';
  out.push(`  <text x="${MARGIN}" y="${px(top + 17)}" class="h">${escapeXml(p.metric)} (${better})</text>`);
  const max = Math.max(0, ...p.bars.map((b) => b.value ?? 0));
  const span = WIDTH - 2 * MARGIN - VALUE_ROOM;
  let y = top + PANEL_HEAD_H;
  for (const b of p.bars) {
    const w = b.value === null || max <= 0 ? 0 : Math.max(1, (b.value / max) * span);
    const cls = b.ours ? ' class="ours"' : '';
    out.push(`  <text x="${MARGIN}" y="${px(y + 11)}"${cls}>${escapeXml(b.subject)}</text>`);
    const barY = y + LABEL_H;
    if (w > 0) out.push(`  <rect x="${MARGIN}" y="${px(barY)}" width="${px(w)}" height="${BAR_H}" fill="${b.ours ? OURS : PEER}"/>`);
    out.push(`  <text x="${px(MARGIN + w + 6)}" y="${px(barY + 11)}"${cls}>${escapeXml(fmtValue(b.value))}</text>`);
    y += LABEL_H + BAR_H + BAR_GAP;
  }
  return out;
}

/** The `<desc>`: every panel and every value, for a reader that cannot see the bars. */
export function describe(c: Chart): string {
  return c.panels
    .map(
      (p) =>
        `${p.metric} (${p.higherIsBetter ? 'higher' : 'lower'} is better): ${p.bars.map((b) => `${b.subject} ${fmtValue(b.value)}`).join('; ')}.`,
    )
    .join(' ');
}

/** The chart as an SVG document, ending in a newline. */
export function renderChartSvg(c: Chart): string {
  const height = TITLE_H + c.panels.reduce((s, p) => s + panelHeight(p), 0);
  const id = `chart-${c.slug}`;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${px(height)}" viewBox="0 0 ${WIDTH} ${px(height)}" role="img" aria-labelledby="${id}-title ${id}-desc">`,
    `  <title id="${id}-title">${escapeXml(c.title)}</title>`,
    `  <desc id="${id}-desc">${escapeXml(describe(c))}</desc>`,
    '  <style>text{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;font-size:12px;fill:#212529}.t{font-size:16px;font-weight:600}.h{font-weight:600}.ours{font-weight:700;fill:#d9480f}</style>',
    `  <rect width="${WIDTH}" height="${px(height)}" fill="#ffffff"/>`,
    `  <text x="${MARGIN}" y="22" class="t">${escapeXml(c.title)}</text>`,
  ];
  let top = TITLE_H;
  for (const p of c.panels) {
    out.push(...renderPanel(p, top));
    top += panelHeight(p);
  }
  out.push('</svg>', '');
  return out.join('\n');
}

/** Every chart of `rows`: its file under bench/charts/, its title and its SVG. */
export function chartFiles(rows: readonly Row[]): { file: string; title: string; svg: string }[] {
  return groupCharts(rows).map((c) => ({ file: `bench/charts/${c.slug}.svg`, title: c.title, svg: renderChartSvg(c) }));
}
