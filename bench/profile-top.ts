/**
 * @module bench/profile-top — prints the top of V8 CPU profiles (`node --cpu-prof`; bench/lib/profile.ts): self
 * and inclusive time per function and self time per file, as % of the busy samples. For reading the profiles
 * that `npm run bench -- --cpu-prof <dir>` writes, and those `npm run bench` takes of a missed target.
 *
 *   node --import tsx bench/profile-top.ts <file.cpuprofile | dir> [--top 25]
 */
import { profileFiles, renderSummary, summarizeProfile } from './lib/profile.ts';

const args = process.argv.slice(2);
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 25;
const target = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--top');
if (!target) {
  process.stderr.write('usage: profile-top <file.cpuprofile | dir> [--top N]\n');
  process.exit(2);
}
for (const file of profileFiles(target)) {
  const s = summarizeProfile(file, top);
  if (s.busyS / s.sampledS < 0.05) {
    process.stdout.write(`\n${s.file}: ${s.sampledS.toFixed(2)} s sampled, mostly idle (a helper thread; skipped)\n`);
    continue;
  }
  process.stdout.write(`\n${renderSummary(s)}\n`);
}
