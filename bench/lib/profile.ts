/**
 * @module bench/lib/profile — the top of a V8 CPU profile (`node --cpu-prof`): self time per function, inclusive
 * time of this project's functions and self time per file or package, as shares of the busy samples (idle and
 * "(program)" left out: a server under a suite that measures one subject at a time is idle much of its life).
 * `npm run bench` attaches this to every target it misses (run.ts); bench/profile-top.ts prints it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './proc.ts';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** One line of a summary: a share of the busy time (0–100) and what it is (function and place, or file). */
export interface Share {
  readonly pct: number;
  readonly what: string;
}

export interface ProfileSummary {
  readonly file: string;
  readonly sampledS: number;
  readonly busyS: number;
  readonly self: readonly Share[];
  /** Inclusive time of functions under runtime/, generated/, samples/, bench/ (or their built dist/). */
  readonly project: readonly Share[];
  readonly byFile: readonly Share[];
}

/** The .cpuprofile files of `target` (a file, or every one in a folder). */
export function profileFiles(target: string): string[] {
  return statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(target, f))
    : [target];
}

const shortUrl = (url: string) => {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith(ROOT) ? relative(ROOT, path) : path;
};
const IDLE = new Set(['(idle)', '(program)']);
const PROJECT = /\s(runtime|generated|samples|bench)\/|@wiregen\//;

/** Summarises one profile: the `top` largest entries of each list. */
export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (n: Node) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${(functionName || '(anonymous)').slice(0, 60)}  ${url ? `${shortUrl(url)}:${lineNumber + 1}` : '(native)'}`;
  };
  const fileOf = (n: Node) => {
    const { functionName, url } = n.callFrame;
    if (!url) return `(${functionName.slice(0, 40)})`;
    const s = shortUrl(url);
    if (!url.includes('node_modules/') || s.startsWith('@wiregen/')) return s;
    return s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const perFile = new Map<string, number>();
  let total = 0;
  let idle = 0;
  p.samples.forEach((id, i) => {
    const t = p.timeDeltas[i] ?? 0;
    total += t;
    const node = byId.get(id)!;
    if (IDLE.has(node.callFrame.functionName)) {
      idle += t;
      return;
    }
    self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + t);
    perFile.set(fileOf(node), (perFile.get(fileOf(node)) ?? 0) + t);
    const seen = new Set<string>();
    for (let n: Node | undefined = node; n; n = parent.has(n.id) ? byId.get(parent.get(n.id)!) : undefined) {
      const k = keyOf(n);
      if (n.callFrame.functionName === '(root)' || seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + t);
    }
  });
  const busy = total - idle;
  const list = (m: Map<string, number>, keep: (k: string) => boolean = () => true) =>
    [...m]
      .filter(([k]) => keep(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, t]) => ({ pct: +((100 * t) / busy).toFixed(1), what }));
  return {
    file: relative(ROOT, file),
    sampledS: total / 1e6,
    busyS: busy / 1e6,
    self: list(self),
    project: list(incl, (k) => PROJECT.test(k)),
    byFile: list(perFile),
  };
}

/** The summary as text, for a terminal or BENCHMARKS.md. */
export function renderSummary(s: ProfileSummary): string {
  const lines = [`${s.file}: ${s.sampledS.toFixed(2)} s sampled, ${s.busyS.toFixed(2)} s busy; % of busy time`];
  const section = (title: string, shares: readonly Share[]) => {
    lines.push(title);
    for (const x of shares) lines.push(`  ${x.pct.toFixed(1).padStart(5)}%  ${x.what}`);
  };
  section('self time by function:', s.self);
  section('inclusive time, functions of this project:', s.project);
  section('self time by file / package:', s.byFile);
  return lines.join('\n');
}
