/**
 * @module test/bench/charts — the charts of BENCHMARKS.md (bench/lib/chart.ts, bench/lib/chart-svg.ts): rows
 * grouped by workload, SVG that parses and shows every value, the same bytes for the same rows, and the
 * committed bench/charts/*.svg what `npm run bench:report` draws from the committed results.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { groupCharts, splitSuffix } from '../../bench/lib/chart.ts';
import { chartFiles, renderChartSvg } from '../../bench/lib/chart-svg.ts';
import { ROOT } from '../../bench/lib/proc.ts';
import type { Row } from '../../bench/lib/table.ts';

const row = (part: string, subject: string, metric: string, value: number | null, workload?: string): Row => ({
  part,
  subject,
  metric,
  value,
  ...(workload === undefined ? {} : { workload }),
});

/**
 * A well-formedness check of XML 1.0 (https://www.w3.org/TR/xml/#sec-well-formed) as far as SVG written by
 * hand needs it: one root, tags nested and closed, attributes quoted and not repeated, `<` and `&` escaped.
 * Returns the problem, or undefined.
 */
function xmlProblem(xml: string): string | undefined {
  const stack: string[] = [];
  let roots = 0;
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
  const badText = (s: string) => /</.test(s) || /&/.test(s.replace(entity, ''));
  const token =
    /<!--[\s\S]*?-->|<\/([A-Za-z][\w:.-]*)\s*>|<([A-Za-z][\w:.-]*)((?:\s+[A-Za-z][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|(<)/g;
  for (let m = token.exec(xml); m; m = token.exec(xml)) {
    const [all, close, open, attrs, selfClose, text, stray] = m;
    if (stray) return `stray < at ${m.index}`;
    if (text !== undefined) {
      if (badText(text)) return `unescaped text at ${m.index}`;
      if (stack.length === 0 && text.trim()) return `text outside the root at ${m.index}`;
    } else if (close) {
      if (stack.pop() !== close) return `</${close}> does not close the open tag at ${m.index}`;
    } else if (open) {
      if (stack.length === 0 && ++roots > 1) return 'more than one root';
      const names = [...(attrs ?? '').matchAll(/([A-Za-z][\w:.-]*)\s*=\s*("[^"]*"|'[^']*')/g)];
      if (new Set(names.map((a) => a[1])).size !== names.length) return `repeated attribute in <${open}>`;
      if (names.some((a) => badText(a[2]!.slice(1, -1)))) return `unescaped attribute value in <${open}>`;
      if (!selfClose) stack.push(open);
    } else if (!all.startsWith('<!--')) return `unexpected ${all}`;
  }
  if (stack.length) return `<${stack.at(-1)}> not closed`;
  return roots === 1 ? undefined : 'no root';
}

describe('xmlProblem', () => {
  test.each([
    ['<svg><g></svg>', '</svg> does not close'],
    ['<svg><text>a & b</text></svg>', 'unescaped text'],
    ['<svg a="1" a="2"/>', 'repeated attribute'],
    ['<svg></svg><svg></svg>', 'more than one root'],
    ['<svg><text>x</text>', 'not closed'],
    ['<svg x=1/>', 'stray <'],
  ])('finds what is wrong with %s', (xml, problem) => {
    expect(xmlProblem(xml)).toContain(problem);
  });
  test('passes well-formed XML', () => {
    expect(xmlProblem('<svg a="&amp;&#38;"><!-- c --><text>&lt;x&gt;</text><rect/></svg>\n')).toBeUndefined();
  });
});

describe('grouping', () => {
  test('by the workload field: one chart per part and workload, a panel per rate and CPU metric', () => {
    const charts = groupCharts([
      row('workloads', 'ours (built)', 'req/s', 100, 'tools/call add'),
      row('workloads', 'SDK v2', 'req/s', 10, 'tools/call add'),
      row('workloads', 'ours (built)', 'p99 ms', 1, 'tools/call add'),
      row('workloads', 'ours (built)', 'CPU µs/req', 30, 'tools/call add'),
      row('workloads', 'ours (built)', 'req/s', 50, 'tools/list 100 tools'),
      row('workloads', 'SDK v2', 'req/s', 5, 'tools/list 100 tools'),
    ]);
    expect(charts.map((c) => [c.slug, c.title])).toEqual([
      ['workloads-tools-call-add', 'workloads: tools/call add'],
      ['workloads-tools-list-100-tools', 'workloads: tools/list 100 tools'],
    ]);
    expect(charts[0]!.panels.map((p) => [p.metric, p.higherIsBetter, p.bars.map((b) => [b.subject, b.value, b.ours])])).toEqual([
      [
        'req/s',
        true,
        [
          ['ours (built)', 100, true],
          ['SDK v2', 10, false],
        ],
      ],
      ['CPU µs/req', false, [['ours (built)', 30, true]]],
    ]);
  });

  test('by a subject suffix the part shares, a shorter name joining the workload it ends', () => {
    const charts = groupCharts([
      row('mcp-stdio', 'ours (built packages), 2026-07-28', 'req/s (16 in flight)', 80),
      row('mcp-stdio', 'SDK v2, 2026-07-28', 'req/s (16 in flight)', 15),
      row('mcp-stdio', 'ours (built packages), handshake 2025-11-25', 'req/s (16 in flight)', 100),
      row('mcp-stdio', 'SDK v2, handshake 2025-11-25', 'req/s (16 in flight)', 25),
      row('mcp-stdio', 'SDK v1 StdioServerTransport, 2025-11-25', 'req/s (16 in flight)', 37),
    ]);
    expect(charts.map((c) => [c.slug, c.panels[0]!.bars.map((b) => b.subject)])).toEqual([
      ['mcp-stdio-2026-07-28', ['ours (built packages), 2026-07-28', 'SDK v2, 2026-07-28']],
      [
        'mcp-stdio-handshake-2025-11-25',
        ['ours (built packages), handshake 2025-11-25', 'SDK v2, handshake 2025-11-25', 'SDK v1 StdioServerTransport, 2025-11-25'],
      ],
    ]);
  });

  test('by part where the suffixes name no shared workload, or a subject has none; one bar per subject', () => {
    const charts = groupCharts([
      row('scale', 'memory, 1 instance', 'req/s', 3000),
      row('scale', 'PostgreSQL, 1 instance', 'req/s', 627),
      row('scale', 'PostgreSQL, 3 instances', 'req/s', 464),
      row('a2a', 'ours: listenA2aHttp (built packages)', 'req/s', 13000),
      row('a2a', 'ours: listenA2aHttp (built packages)', 'req/s', 13000),
      row('a2a', '@a2a-js/sdk 1.3.0 (express, JSON-RPC)', 'req/s', 2600),
      row('a2a', '@a2a-js/sdk 1.3.0 (express, JSON-RPC)', 'p50 ms', 3),
      row('startup', 'ours, stdio', 'cold start ms', 70),
    ]);
    expect(charts.map((c) => [c.slug, c.panels.map((p) => p.bars.length)])).toEqual([
      ['scale', [3]],
      ['a2a', [2]],
    ]);
  });

  test('splits at the last comma outside parentheses', () => {
    expect(splitSuffix('SDK v1 1.32.2: stateless, express (2025-11-25)')).toEqual(['SDK v1 1.32.2: stateless', 'express (2025-11-25)']);
    expect(splitSuffix('@a2a-js/sdk 1.3.0 (express, JSON-RPC)')).toBeUndefined();
  });
});

describe('SVG', () => {
  const rows = [
    row('mcp-http', 'ours: listenMcpHttp', 'req/s', 22260),
    row('mcp-http', 'SDK v2 <createMcpHandler> & toNodeHandler', 'req/s', 1508.6),
    row('mcp-http', 'a peer not measured', 'req/s', null),
    row('mcp-http', 'ours: listenMcpHttp', 'CPU µs/req', 40.349),
    row('mcp-http', 'SDK v2 <createMcpHandler> & toNodeHandler', 'CPU µs/req', 790.13),
  ];
  const chart = groupCharts(rows)[0]!;
  const svg = renderChartSvg(chart);

  test('is well-formed, with a title and a description', () => {
    expect(xmlProblem(svg)).toBeUndefined();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* role="img" aria-labelledby="[^"]+"/);
    expect(svg).toContain('<title id="chart-mcp-http-title">mcp-http</title>');
    expect(svg).toMatch(/<desc id="chart-mcp-http-desc">[^<]*22,260[^<]*<\/desc>/);
  });

  test('labels every bar with its subject and value, the metric with its unit; ours highlighted', () => {
    for (const text of [
      'ours: listenMcpHttp',
      'SDK v2 &lt;createMcpHandler&gt; &amp; toNodeHandler',
      '>22,260<',
      '>1,509<',
      '>40.3<',
      '>790<',
      '>not measured<',
      'req/s (higher is better)',
      'CPU µs/req (lower is better)',
    ])
      expect(svg).toContain(text);
    expect(svg).toMatch(/<text [^>]*class="ours">ours: listenMcpHttp<\/text>/);
    expect(svg).not.toMatch(/<text [^>]*class="ours">SDK v2/);
    // The longest bar of a panel is the full span; the others in proportion.
    const widths = [...svg.matchAll(/<rect x="16" y="[\d.]+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(4);
    expect(widths[0]).toBe(618);
    expect(widths[1]).toBeCloseTo((618 * 1508.6) / 22260, 0);
  });

  test('is the same bytes for the same rows, with no date in it', () => {
    expect(renderChartSvg(groupCharts(structuredClone(rows))[0]!)).toBe(svg);
    expect(renderChartSvg(structuredClone(chart))).toBe(svg);
    expect(svg).not.toMatch(/20\d\d-\d\d-\d\dT/);
  });
});

describe('the committed charts', () => {
  const results = JSON.parse(readFileSync(join(ROOT, 'bench/results/latest.json'), 'utf8')) as { rows: Row[] };
  const files = chartFiles(results.rows);

  test('are what npm run bench:report draws from bench/results/latest.json', () => {
    expect(files.length).toBeGreaterThan(0);
    const committed = readdirSync(join(ROOT, 'bench/charts')).filter((f) => f.endsWith('.svg'));
    expect(committed.sort()).toEqual(files.map((f) => f.file.slice('bench/charts/'.length)).sort());
    for (const f of files) {
      expect(xmlProblem(f.svg), f.file).toBeUndefined();
      expect(readFileSync(join(ROOT, f.file), 'utf8'), `${f.file}: run npm run bench:report`).toBe(f.svg);
    }
  });

  test('are embedded in BENCHMARKS.md', () => {
    const md = readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8');
    for (const f of files) expect(md).toContain(`![${f.title}](${f.file})`);
  });
});
