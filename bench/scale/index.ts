/**
 * @module bench/scale — A2A `SendMessage` (blocking: the answer is the completed task, one artifact) with one
 * and with three instances on PostgreSQL (the `cluster` option, PostgresCluster), against one instance on the
 * in-memory store, in one run: requests per second from a round-robin client of 12 concurrent callers, and
 * where the time goes — CPU per request of the instances and of PostgreSQL (its backends), and database
 * transactions per request. The instances are test/scale/harness/instance.ts processes (from sources, with
 * tsx, all three subjects alike); PostgreSQL is the tests' own (test/helpers/postgres.ts, fsync off), all on
 * 127.0.0.1. Subjects are measured in turn within each round; ratios are paired within rounds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { startPostgres, type TestPostgres } from '../../test/helpers/postgres.ts';
import { startInstance, type InstanceProcess } from '../../test/scale/harness/processes.ts';
import type { PartOptions } from '../lib/part.ts';
import { cpuSeconds } from '../lib/procfs.ts';
import { ratioRow, valueRow } from '../lib/rows.ts';
import type { Row } from '../lib/table.ts';
import { median } from '../lib/table.ts';

const CONCURRENCY = 12;
/** CPU time (ms) of `pid` so far, user + system (with `reaped`, its waited-for children's too); 0 when it is gone. */
function cpuMs(pid: number, reaped = false): number {
  return (cpuSeconds(pid, { reaped }) || 0) * 1000;
}

/**
 * CPU time (ms) of the PostgreSQL server so far: the postmaster, its live children (backends, background
 * workers) and the children it has reaped. A backend that exits during a measurement moves from the live
 * sum to the reaped one with all its time, so the difference of two readings is what the server used between
 * them (summing the live processes alone made it negative when a connection closed meanwhile).
 */
function postgresCpuMs(postmaster: number): number {
  return postgresPids(postmaster).reduce((sum, pid) => sum + cpuMs(pid, pid === postmaster), 0);
}

/** The postmaster and its children (the backends, background workers). */
function postgresPids(postmaster: number): number[] {
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (ppid === postmaster) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

interface Subject {
  readonly key: string;
  readonly label: string;
  readonly instances: InstanceProcess[];
  /** The database name, for its transaction count; none for the in-memory subject. */
  readonly database?: string;
}

interface Round {
  readonly rps: number;
  readonly instanceCpuUs: number;
  readonly postgresCpuUs: number;
  /** Every transaction in the database during the round, per request. */
  readonly xactsPerReq: number;
  /** Less the instances' background transactions (counted in an idle window as long): the tasks' own. */
  readonly taskXactsPerReq: number;
  readonly backgroundPerSecond: number;
}

/** How long to wait after a round for every backend's transaction count to reach pg_stat_database. */
const STATS_FLUSH_MS = 11_000;

const body = (n: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'SendMessage',
    params: { message: { messageId: `bench-${n}`, role: 'ROLE_USER', parts: [{ text: 'quick' }] } },
  });

/** `seconds` of load on `subject`, round robin over its instances; every answer must be the completed task. */
async function load(subject: Subject, seconds: number, postgres: TestPostgres, db: pg.Client, options = { idle: true }): Promise<Round> {
  const xacts = async () =>
    subject.database
      ? Number((await db.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1', [subject.database])).rows[0]!.n)
      : 0;
  const cpuOf = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const instancePids = subject.instances.map((i) => i.pid);
  const [i0, p0, x0] = [cpuOf(instancePids), postgresCpuMs(postgres.pid), await xacts()];
  let done = 0;
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const n = next++;
        const to = subject.instances[n % subject.instances.length]!;
        const res = await fetch(`${to.url}/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: body(n),
        });
        const answer = (await res.json()) as { result?: { task?: { status?: { state?: string } } } };
        if (answer.result?.task?.status?.state !== 'TASK_STATE_COMPLETED')
          throw new Error(`${subject.label}: not a completed task: ${JSON.stringify(answer)}`);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const [i1, p1] = [cpuOf(instancePids), postgresCpuMs(postgres.pid)];
  // A busy backend reports its counts at most once a second, an idle one after 10 s (PostgreSQL 15's
  // PGSTAT_MIN_INTERVAL and PGSTAT_IDLE_INTERVAL): read the total once every backend has; this also settles
  // the next round's starting count. Background transactions (lease renewals) meanwhile count too, a few.
  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
  if (subject.database) await sleep(STATS_FLUSH_MS);
  const x1 = await xacts();
  // The instances' own periodic transactions (heartbeats every lease/3, recovery sweeps of leases and push
  // outbox) run at a fixed rate whatever the load, so they are not per task: count them over a window as long
  // as the one above (load and flush), with no request, and take them out.
  let background = 0;
  if (subject.database && options.idle) {
    await sleep(elapsed * 1000 + STATS_FLUSH_MS);
    background = (await xacts()) - x1;
  }
  return {
    rps: done / elapsed,
    instanceCpuUs: ((i1 - i0) * 1000) / done,
    postgresCpuUs: ((p1 - p0) * 1000) / done,
    xactsPerReq: (x1 - x0) / done,
    taskXactsPerReq: (x1 - x0 - background) / done,
    backgroundPerSecond: background / (elapsed + STATS_FLUSH_MS / 1000),
  };
}

export async function run(options: PartOptions): Promise<Row[]> {
  const postgres = await startPostgres();
  const started: InstanceProcess[] = [];
  const db = new pg.Client({ connectionString: postgres.url });
  try {
    await db.connect();
    const one = await postgres.createDatabase('bench_one');
    const three = await postgres.createDatabase('bench_three');
    const lease = '10000';
    const memory: Subject = { key: 'memory', label: 'memory, 1 instance', instances: [await startInstance(['a2a-memory'])] };
    const pg1: Subject = {
      key: 'pg1',
      label: 'PostgreSQL, 1 instance',
      instances: [await startInstance(['a2a', one, 'one-0', lease])],
      database: 'bench_one',
    };
    const first = await startInstance(['a2a', three, 'three-0', lease]);
    const others = await Promise.all([1, 2].map((k) => startInstance(['a2a', three, `three-${k}`, lease])));
    const pg3: Subject = { key: 'pg3', label: 'PostgreSQL, 3 instances', instances: [first, ...others], database: 'bench_three' };
    const subjects = [memory, pg1, pg3];
    for (const s of subjects) started.push(...s.instances);
    options.log(`scale: warm-up, then ${options.rounds} round(s) of ${options.duration} s per subject, ${CONCURRENCY} callers`);
    for (const s of subjects) await load(s, Math.min(2, options.duration), postgres, db, { idle: false });
    const rounds = new Map<string, Round[]>(subjects.map((s) => [s.key, []]));
    for (let r = 0; r < options.rounds; r++) {
      for (const s of subjects) {
        const round = await load(s, options.duration, postgres, db);
        rounds.get(s.key)!.push(round);
        options.log(
          `scale: round ${r + 1} ${s.label}: ${round.rps.toFixed(0)} req/s, instances ${round.instanceCpuUs.toFixed(0)} µs/req, PostgreSQL ${round.postgresCpuUs.toFixed(0)} µs/req`,
        );
      }
    }
    const of = (key: string, f: (r: Round) => number) => rounds.get(key)!.map(f);
    const rps = (r: Round) => r.rps;
    const part = 'scale';
    const vsMemory = 'vs memory, 1 instance';
    const rows: Row[] = [
      valueRow(part, memory.label, 'req/s', of('memory', rps), { note: `SendMessage, blocking, ${CONCURRENCY} callers` }),
      ratioRow(part, pg1.label, 'req/s', of('pg1', rps), of('memory', rps), vsMemory),
      ratioRow(part, pg3.label, 'req/s', of('pg3', rps), of('memory', rps), vsMemory),
      ratioRow(part, pg3.label, 'req/s', of('pg3', rps), of('pg1', rps), 'vs PostgreSQL, 1 instance'),
    ];
    for (const s of subjects) {
      rows.push(
        valueRow(
          part,
          s.label,
          'instance CPU µs/req',
          of(s.key, (r) => r.instanceCpuUs),
        ),
      );
      if (s.database) {
        rows.push(
          valueRow(
            part,
            s.label,
            'PostgreSQL CPU µs/req',
            of(s.key, (r) => r.postgresCpuUs),
          ),
        );
        rows.push(
          valueRow(
            part,
            s.label,
            'transactions/req',
            of(s.key, (r) => r.xactsPerReq),
            { note: 'every transaction in the database during the round' },
          ),
        );
        rows.push(
          valueRow(
            part,
            s.label,
            'background transactions/s',
            of(s.key, (r) => r.backgroundPerSecond),
            { note: 'the instances with no request: heartbeats, recovery sweeps' },
          ),
        );
      }
    }
    // The targets (bench/lib/targets.ts): transactions per task, the database's CPU against the instance's, and
    // the whole CPU per task with three instances against one; ratios paired within rounds.
    const xacts = of('pg1', (r) => r.taskXactsPerReq);
    rows.push(
      valueRow(part, pg1.label, 'transactions/task', xacts, {
        note: 'transactions/req less the background transactions over as long a window',
        target: '≤ 3',
        targetId: 'scale-xacts',
        met: median(xacts) <= 3,
        workload: 'SendMessage, blocking',
      }),
    );
    const pgCpu = of('pg1', (r) => r.postgresCpuUs);
    const instCpu = of('pg1', (r) => r.instanceCpuUs);
    rows.push(
      ratioRow(part, pg1.label, 'PostgreSQL CPU/task', pgCpu, instCpu, 'vs instance CPU/task', {
        id: 'scale-pg-cpu',
        text: '≤ 1× instance',
        ok: (x) => x <= 1,
      }),
    );
    const whole = (key: string) => of(key, (r) => r.instanceCpuUs + r.postgresCpuUs);
    rows.push(
      ratioRow(part, pg3.label, 'CPU/task, instances + PostgreSQL', whole('pg3'), whole('pg1'), 'vs PostgreSQL, 1 instance', {
        id: 'scale-cpu-3v1',
        text: '≤ 1.2× 1 instance',
        ok: (x) => x <= 1.2,
      }),
    );
    return rows;
  } finally {
    for (const i of started) await i.kill('SIGTERM').catch(() => undefined);
    await db.end().catch(() => undefined);
    await postgres.stop();
  }
}
