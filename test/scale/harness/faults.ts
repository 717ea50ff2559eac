/**
 * @module test/scale/harness/faults — what the scale run (run.ts) does to the system halfway, and what it
 * measures around it:
 *
 * - `kill`: one agent and one MCP instance SIGKILLed (their leases expire, the others adopt their tasks);
 * - `pg-restart`: the PostgreSQL server stopped (fast shutdown of the postmaster the run started) for the
 *   outage, then started again on the same data directory and port;
 * - `pg-terminate`: every other session of the run's database ended by `pg_terminate_backend`, twice a second
 *   apart (https://www.postgresql.org/docs/current/functions-admin.html#FUNCTIONS-ADMIN-SIGNAL).
 *
 * Around it: how long each request answered while the fault lasted (an answer, error or not, rather than a
 * hang), and the recovery: from the database back (the instant of the kill, for `kill`) to the first task
 * completed through each agent instance, and to every lease, outbox entry and running task older than that
 * instant being gone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { TestPostgres } from '../../helpers/postgres.ts';
import type { InstanceProcess } from './processes.ts';

export const FAULTS = ['kill', 'pg-restart', 'pg-terminate'] as const;
export type FaultKind = (typeof FAULTS)[number];

/** When a fault began and ended (ms since the epoch), and the pids it killed. */
export interface FaultTimes {
  readonly kind: FaultKind;
  readonly at: number;
  /** The database back (its restart answered, or the second termination done); `at` for a kill. */
  readonly back: number;
  readonly killed: readonly number[];
}

export interface FaultTargets {
  readonly postgres: TestPostgres;
  /** The run's database, where pg-terminate ends the sessions. */
  readonly database: string;
  /** The instances a kill takes: one agent, one MCP server. */
  readonly victims: readonly InstanceProcess[];
  readonly outageMs: number;
  readonly log: (line: string) => void;
}

/** Brings the fault about; resolves once it is over (the database accepts connections again). */
export async function injectFault(kind: FaultKind, t: FaultTargets): Promise<FaultTimes> {
  const at = Date.now();
  if (kind === 'kill') {
    const killed: number[] = [];
    for (const victim of t.victims) {
      killed.push(victim.pid);
      await victim.kill('SIGKILL');
    }
    t.log(`killed ${killed.join(' ')} (SIGKILL)`);
    return { kind, at, back: at, killed };
  }
  if (kind === 'pg-restart') {
    const pid = t.postgres.pid;
    await t.postgres.pause();
    t.log(`PostgreSQL ${pid} stopped (fast shutdown) after ${Date.now() - at} ms`);
    await sleep(Math.max(0, at + t.outageMs - Date.now()));
    await t.postgres.resume();
    const back = Date.now();
    t.log(`PostgreSQL started again as ${t.postgres.pid} on port ${t.postgres.port}: ${((back - at) / 1000).toFixed(1)} s without it`);
    return { kind, at, back, killed: [] };
  }
  let back = at;
  for (let round = 0; round < 2; round++) {
    if (round) await sleep(1000);
    const admin = new pg.Client({ connectionString: t.database });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()',
      );
      back = Date.now();
      t.log(`pg_terminate_backend: ${rowCount} sessions ended`);
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
  return { kind, at, back, killed: [] };
}

/** One request's answer: when it was sent, how long it took, and whether it was an error. */
interface Answer {
  readonly start: number;
  readonly ms: number;
  readonly ok: boolean;
}

/** What the requests sent while the fault lasted got. */
export interface DuringFault {
  readonly answers: number;
  readonly errors: number;
  /** The slowest of them, ms (a hang shows as the client's 15 s timeout). */
  readonly slowestMs: number;
}

/** Every request's answer, by protocol. */
export class AnswerLog {
  readonly #answers = { a2a: [] as Answer[], mcp: [] as Answer[] };

  /** Times `request`, recording its answer under `kind`. */
  async time<T>(kind: 'a2a' | 'mcp', request: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      const out = await request();
      this.#answers[kind].push({ start, ms: Date.now() - start, ok: true });
      return out;
    } catch (err) {
      this.#answers[kind].push({ start, ms: Date.now() - start, ok: false });
      throw err;
    }
  }

  /** The requests sent from `from` to `to` (both ms since the epoch). */
  during(kind: 'a2a' | 'mcp', from: number, to: number): DuringFault {
    const sent = this.#answers[kind].filter((a) => a.start >= from && a.start <= to);
    return { answers: sent.length, errors: sent.filter((a) => !a.ok).length, slowestMs: Math.max(0, ...sent.map((a) => a.ms)) };
  }
}

/**
 * Polls `db` from `since` on until no lease, outbox entry or submitted/working task older than `since` is left;
 * resolves to how long that took (ms), or undefined when `stop()` came first.
 */
export function watchDrain(db: pg.Pool, since: number): { readonly drained: Promise<number | undefined>; stop(): void } {
  let stopped = false;
  const drained = (async () => {
    const instant = new Date(since).toISOString();
    while (!stopped) {
      try {
        const { rows } = await db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM a2a_task_leases WHERE taken_at < $1::timestamptz)
                + (SELECT count(*) FROM a2a_push_outbox WHERE created_at < $1::timestamptz)
                + (SELECT count(*) FROM a2a_tasks WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING') AND status_timestamp < $2)
                AS n`,
          [instant, instant],
        );
        if (Number(rows[0]!.n) === 0) return Date.now() - since;
      } catch {
        // The database still restarting: poll again.
      }
      await sleep(100);
    }
    return undefined;
  })();
  return { drained, stop: () => (stopped = true) };
}

/**
 * After the fault, whether each live agent instance still hears the others (its LISTEN connection back): a
 * task started through the next instance is followed (SubscribeToTask, SSE) through this one until it
 * completes, within `timeoutMs`. How many of the live instances' streams saw the completion.
 */
export async function followAcross(
  agents: readonly InstanceProcess[],
  timeoutMs = 5000,
): Promise<{ readonly followed: number; readonly of: number }> {
  const live = agents.filter((a) => a.alive);
  const post = (to: InstanceProcess, method: string, params: unknown, signal: AbortSignal) =>
    fetch(`${to.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal,
    });
  const follows = await Promise.all(
    live.map(async (follower, k) => {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const message = { messageId: `follow-${k}-${Date.now()}`, role: 'ROLE_USER', parts: [{ text: 'work' }] };
        const started = (await (
          await post(live[(k + 1) % live.length]!, 'SendMessage', { message, configuration: { returnImmediately: true } }, signal)
        ).json()) as {
          result?: { task?: { id: string } };
        };
        const res = await post(follower, 'SubscribeToTask', { id: started.result?.task?.id }, signal);
        let seen = '';
        for await (const chunk of res.body!) {
          seen += Buffer.from(chunk).toString();
          if (seen.includes('TASK_STATE_COMPLETED')) return true;
        }
      } catch {
        // Timed out, or refused: not followed.
      }
      return false;
    }),
  );
  return { followed: follows.filter(Boolean).length, of: live.length };
}
