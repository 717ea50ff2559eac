/**
 * @module bench/lib/profiling — the profile behind a missed target: ours run again on its own under
 * `node --cpu-prof`, doing what the target measures, and the profile summarised (profile.ts). Runs after the
 * measurement (a profiler slows what it watches), writing under the run's profile folder.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONNECTIONS, PIPELINING, runLoad, startChecked, WARMUP_S, type HttpSubject } from './load.ts';
import { summarizeProfile, type ProfileSummary } from './profile.ts';

/** `--cpu-prof` into `dir` (emptied first, so the newest profile there is this run's). */
export function cpuProfArgs(dir: string): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** The busiest profile written into `dir` (a server writes one per thread that runs JavaScript), summarised. */
export function summarizeDir(dir: string): ProfileSummary {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));
  if (!files.length) throw new Error(`no profile written in ${dir}`);
  const summaries = files.map((f) => summarizeProfile(f));
  return summaries.reduce((a, b) => (b.busyS > a.busyS ? b : a));
}

/** Profiles an HTTP subject (its args run under --cpu-prof) through a warm-up and `seconds` of the part's load. */
export async function profileHttp(subject: HttpSubject, dir: string, seconds: number): Promise<ProfileSummary> {
  const s = { ...subject, args: [...cpuProfArgs(dir), ...subject.args] };
  const { child, url } = await startChecked(s);
  try {
    const cfg = { url, headers: s.request.headers, body: s.request.body, connections: CONNECTIONS, pipelining: PIPELINING };
    await runLoad({ ...cfg, duration: Math.min(WARMUP_S, 2) });
    await runLoad({ ...cfg, duration: seconds });
  } finally {
    await child.stop();
  }
  return summarizeDir(dir);
}

/** Whether `dir` holds a profile newer than `since` (ms). */
export function wroteProfile(dir: string, since: number): boolean {
  return readdirSync(dir).some((f) => f.endsWith('.cpuprofile') && statSync(join(dir, f)).mtimeMs >= since);
}
