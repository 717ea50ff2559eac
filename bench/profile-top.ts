/**
 * @module bench/profile-top — the top of a V8 CPU profile (`node --cpu-prof`): self and inclusive time per
 * function and self time per file, as % of the busy samples (idle and "(program)" left out: a server under a
 * suite that measures one subject at a time is idle most of its life). For reading the profiles that
 * `npm run bench -- --cpu-prof <dir>` writes. TypeScript run through tsx reports generated line numbers.
 *
 *   node --import tsx bench/profile-top.ts <file.cpuprofile | dir> [--top 25]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './lib/proc.ts';

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

const args = process.argv.slice(2);
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 25;
const target = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top');
if (!target) {
  process.stderr.write('usage: profile-top <file.cpuprofile | dir> [--top N]\n');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];

const shortUrl = (url: string) => {
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) return path.slice(nm + 'node_modules/'.length);
  return path.startsWith(ROOT) ? relative(ROOT, path) : path;
};
const IDLE = new Set(['(idle)', '(program)']);

for (const file of files) {
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
    if (!url.includes('node_modules/')) return s;
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
  const name = relative(process.cwd(), file);
  if (busy / total < 0.05) {
    process.stdout.write(`\n${name}: ${(total / 1e6).toFixed(2)} s sampled, ${((100 * busy) / total).toFixed(1)}% busy (a helper thread; skipped)\n`);
    continue;
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
  process.stdout.write(`\n${name}: ${(total / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy; % of busy time\n`);
  process.stdout.write('self time by function:\n');
  for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${pct(t)}  ${k}\n`);
  process.stdout.write('inclusive time, functions of this project:\n');
  for (const [k, t] of [...incl]
    .filter(([k]) => /\s(runtime|generated|fixtures|bench)\//.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    process.stdout.write(`  ${pct(t)}  ${k}\n`);
  process.stdout.write('self time by file / package:\n');
  for (const [k, t] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`  ${pct(t)}  ${k}\n`);
}
