/**
 * @module test/scale/harness/run — the scale run (`npm run scale`, and a short one in npm test): a PostgreSQL
 * of its own (test/helpers/postgres.ts), three A2A agent instances sharing it and three MCP server instances
 * sharing a requestState key (instance.ts), all on 127.0.0.1, and a round-robin client that, for a bounded
 * time, starts tasks with a webhook, answers interrupted tasks and cancels running ones through other
 * instances than the one that took them, and runs MCP input_required calls whose second round goes to
 * another instance. Halfway it SIGKILLs one agent instance and one MCP instance. Then it waits for the dead
 * instance's leases to expire and checks, in the database, that every task ended (or waits for input): a task
 * still submitted or working, or one the client was given that the database lacks, is lost. Pushes are
 * counted by body: a body received twice is a duplicate. Delivery is at least once: a push the killed
 * instance had sent without yet removing it from the outbox is sent again by the instance adopting it, so a
 * duplicate whose first copy arrived before the kill is told apart from one that arrived after (a fault).
 * Instead of the kill, the fault may take the database away (faults.ts: restarted, or its sessions ended):
 * the workload then goes on a few seconds past its return, and the run measures how requests were answered
 * meanwhile and how long recovery took (report.ts).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { startPostgres } from '../../helpers/postgres.ts';
import { AnswerLog, followAcross, injectFault, watchDrain, type FaultKind, type FaultTimes } from './faults.ts';
import { pushReceiver, RESUMED, startInstance, type InstanceProcess } from './processes.ts';
import type { ScaleResult } from './report.ts';

export { detailLine, failures, summaryLine, type ScaleResult } from './report.ts';

export interface ScaleOptions {
  /** How long the workload runs, in seconds. */
  readonly seconds: number;
  /** Instances of the agent and of the MCP server. Default 3. */
  readonly instances?: number;
  /** Client loops sending A2A requests side by side. Default 6; MCP loops: half of it. */
  readonly concurrency?: number;
  /** The agents' lease time (ms): how soon a dead instance's tasks are recovered. Default 1500. */
  readonly leaseMs?: number;
  /** Bring the fault about at this fraction of the run; false: none. Default 0.5. */
  readonly killAt?: number | false;
  /** What happens then (faults.ts). Default `kill`. */
  readonly fault?: FaultKind;
  /** How long PostgreSQL stays stopped (pg-restart), ms. Default 10 000. */
  readonly outageMs?: number;
  /** How long the workload goes on after the database is back (database faults), ms. Default 5000. */
  readonly afterFaultMs?: number;
  readonly log?: (line: string) => void;
}

type Json = Record<string, any>;

/** Round robin over the instances still answering; a refused connection takes an instance out. */
class RoundRobin {
  #next = 0;
  readonly all: readonly InstanceProcess[];
  constructor(all: readonly InstanceProcess[]) {
    this.all = all;
  }
  pick(): InstanceProcess {
    const alive = this.all.filter((i) => i.alive);
    if (alive.length === 0) throw new Error('no instance left');
    return alive[this.#next++ % alive.length]!;
  }
  /** Another live instance than `not`, when there is one. */
  other(not: InstanceProcess): InstanceProcess {
    for (let k = 0; k < this.all.length; k++) {
      const i = this.pick();
      if (i !== not) return i;
    }
    return this.pick();
  }
}

export async function runScale(options: ScaleOptions): Promise<ScaleResult> {
  const log = options.log ?? (() => {});
  const n = options.instances ?? 3;
  const leaseMs = options.leaseMs ?? 1500;
  const started = Date.now();
  const postgres = await startPostgres();
  const processes: InstanceProcess[] = [];
  const hook = await pushReceiver();
  const database = await postgres.createDatabase('scale');
  // A pool: its idle connections' errors (the database restarting) are the pool's, and it reconnects.
  const db = new pg.Pool({ connectionString: database, max: 2 });
  db.on('error', () => undefined);
  const fault = options.fault ?? 'kill';
  const answers = new AnswerLog();
  let drain: ReturnType<typeof watchDrain> | undefined;
  try {
    const url = `postgres://postgres@127.0.0.1:${postgres.port}/scale`;
    const key = randomBytes(32).toString('hex');
    // The first instance migrates the database; the others start beside each other.
    const agents = [await startInstance(['a2a', url, 'agent-0', String(leaseMs)])];
    const rest = await Promise.all([
      ...Array.from({ length: n - 1 }, (_, k) => startInstance(['a2a', url, `agent-${k + 1}`, String(leaseMs)])),
      ...Array.from({ length: n }, () => startInstance(['mcp', key, url])),
    ]);
    agents.push(...rest.slice(0, n - 1));
    const mcps = rest.slice(n - 1);
    processes.push(...agents, ...mcps);
    log(`PostgreSQL pid ${postgres.pid}; agents ${agents.map((a) => a.pid).join(' ')}; MCP servers ${mcps.map((m) => m.pid).join(' ')}`);

    const a2a = new RoundRobin(agents);
    const mcp = new RoundRobin(mcps);
    const given = new Set<string>();
    const withHook = new Set<string>();
    let requests = 0;
    let clientErrors = 0;
    let mcpRounds = 0;
    let mcpFailures = 0;

    /** Tasks the client started with a webhook: through which agent, and when. */
    const sent = new Map<string, { agent: number; at: number }>();
    const rpc = async (to: InstanceProcess, method: string, params: Json): Promise<Json> => {
      requests++;
      const body = await answers.time('a2a', async () => {
        const res = await fetch(`${to.url}/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({ jsonrpc: '2.0', id: requests, method, params }),
          signal: AbortSignal.timeout(15_000),
        });
        const json = (await res.json()) as Json;
        if (json.error) throw new Error(`${method}: ${json.error.message}`);
        return json;
      });
      return body.result as Json;
    };
    const message = (text: string, extra: Json = {}) => ({
      messageId: randomBytes(8).toString('hex'),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...extra,
    });

    const begun = Date.now();
    // A database fault pushes the end past the database's return, for the recovery to be seen under load.
    let deadline = begun + options.seconds * 1000;
    const a2aLoop = async (worker: number) => {
      for (let k = worker; Date.now() < deadline; k++) {
        const first = a2a.pick();
        try {
          if (k % 8 === 6) {
            const task = (await rpc(first, 'SendMessage', { message: message('ask') })).task as Json;
            given.add(task.id);
            await rpc(a2a.other(first), 'SendMessage', { message: message('yes', { taskId: task.id, contextId: task.contextId }) });
          } else {
            const configuration = { returnImmediately: true, taskPushNotificationConfig: { url: hook.url, token: 'scale' } };
            const task = (await rpc(first, 'SendMessage', { message: message('work'), configuration })).task as Json;
            given.add(task.id);
            withHook.add(task.id);
            sent.set(task.id, { agent: agents.indexOf(first), at: Date.now() });
            if (k % 8 === 7) await rpc(a2a.other(first), 'CancelTask', { id: task.id });
            else await sleep(20);
          }
        } catch (err) {
          clientErrors++;
          if (clientErrors <= 5) log(`client: ${(err as Error).message}`);
          await sleep(50);
        }
      }
    };
    const call = (to: InstanceProcess, id: number, params: Json) => answers.time('mcp', () => callOnce(to, id, params));
    const callOnce = async (to: InstanceProcess, id: number, params: Json) => {
      const res = await fetch(to.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'confirm',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'confirm',
            ...params,
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
          },
        }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json()) as Json;
      if (body.error) throw new Error(`tools/call: ${JSON.stringify(body.error).slice(0, 300)}`);
      return body.result as Json | undefined;
    };
    const mcpLoop = async (worker: number) => {
      for (let k = worker * 100_000; Date.now() < deadline; k++) {
        const first = mcp.pick();
        try {
          const round1 = await call(first, 2 * k, { arguments: { n: k } });
          if (round1?.resultType !== 'input_required' || typeof round1.requestState !== 'string')
            throw new Error(`round 1 did not ask for input: ${JSON.stringify(round1).slice(0, 300)}`);
          const second = mcp.other(first);
          const round2 = await call(second, 2 * k + 1, {
            arguments: { n: k },
            requestState: round1.requestState,
            inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
          });
          const out = JSON.parse(round2?.content?.[0]?.text ?? '{}') as Json;
          if (round2?.resultType !== 'complete' || out.state?.n !== k || out.action !== 'accept') throw new Error('round 2 did not complete');
          if (out.pid !== out.state.pid) mcpRounds++;
        } catch (err) {
          mcpFailures++;
          if (mcpFailures <= 5) log(`mcp client: ${(err as Error).message}`);
          await sleep(50);
        }
      }
    };
    let times: FaultTimes | undefined;
    const killer = (async () => {
      if (options.killAt === false) return;
      await sleep(options.seconds * 1000 * (options.killAt ?? 0.5));
      const victims = [agents[1], mcps[1]].filter((v): v is InstanceProcess => v !== undefined);
      // The workload lasts through a database fault, whatever its length, and then some.
      if (fault !== 'kill') deadline = Infinity;
      times = await injectFault(fault, { postgres, database, victims, outageMs: options.outageMs ?? 10_000, log });
      drain = watchDrain(db, times.back);
      if (fault !== 'kill') deadline = Math.max(begun + options.seconds * 1000, times.back + (options.afterFaultMs ?? 5000));
    })();
    const concurrency = options.concurrency ?? 6;
    await Promise.all([
      ...Array.from({ length: concurrency }, (_, w) => a2aLoop(w)),
      ...Array.from({ length: Math.max(1, concurrency >> 1) }, (_, w) => mcpLoop(w)),
      killer,
    ]);
    log(`workload done after ${((Date.now() - begun) / 1000).toFixed(1)} s: ${given.size} tasks given to the client; waiting for recovery`);

    // Recovery: the dead instance's leases expire, a live instance fails its running tasks; the outbox drains.
    const settleBy = Date.now() + leaseMs * 4 + 10_000;
    const unsettled = async () => {
      const tasks = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM a2a_tasks WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')`,
      );
      const outbox = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM a2a_push_outbox');
      return tasks.rows[0]!.n + outbox.rows[0]!.n;
    };
    const followed = await followAcross(agents);
    while ((await unsettled()) > 0 && Date.now() < settleBy) await sleep(100);
    await sleep(300);

    const { rows } = await db.query<{ id: string; state: string; json: Json }>('SELECT id, state, json FROM a2a_tasks');
    const left = await db.query<{ n: number }>('SELECT (SELECT count(*) FROM a2a_task_leases) + (SELECT count(*) FROM a2a_push_outbox) AS n');
    drain?.stop();
    const drainedMs = await drain?.drained;
    const count = (state: string) => rows.filter((r) => r.state === state).length;
    const stored = new Set(rows.map((r) => r.id));
    const lostIds = [
      ...rows.filter((r) => r.state === 'TASK_STATE_SUBMITTED' || r.state === 'TASK_STATE_WORKING').map((r) => r.id),
      ...[...given].filter((id) => !stored.has(id)),
    ];
    const finals = new Set<string>();
    const firstCompleted: (number | undefined)[] = agents.map(() => undefined);
    for (const body of hook.bodies) {
      const update = (JSON.parse(body) as Json).statusUpdate as Json | undefined;
      const state = update?.status?.state;
      if (update && ['TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED'].includes(state)) finals.add(update.taskId);
      // Recovery seen from the client: a task sent through an agent once the database was back, completed.
      const task = update && sent.get(update.taskId);
      if (times && task && state === 'TASK_STATE_COMPLETED' && task.at >= times.back) {
        const ms = hook.firstSeen.get(body)! - times.back;
        firstCompleted[task.agent] = Math.min(firstCompleted[task.agent] ?? Infinity, ms);
      }
    }
    const failedAfterKill = rows.filter(
      (r) => r.state === 'TASK_STATE_FAILED' && /instance running this task stopped/.test(JSON.stringify(r.json)),
    ).length;
    const resumedAfterKill = rows.filter((r) => r.state === 'TASK_STATE_COMPLETED' && JSON.stringify(r.json).includes(RESUMED)).length;
    const killed = times?.killed ?? [];
    // A POST an instance had written is still read by the receiver a moment after the fault: 250 ms of margin.
    const over = (times?.back ?? Infinity) + 250;
    return {
      instances: n,
      fault,
      outageMs: times ? times.back - times.at : 0,
      tasks: rows.length,
      completed: count('TASK_STATE_COMPLETED'),
      canceled: count('TASK_STATE_CANCELED'),
      failedAfterKill,
      resumedAfterKill,
      failed: count('TASK_STATE_FAILED') - failedAfterKill,
      waitingForInput: count('TASK_STATE_INPUT_REQUIRED'),
      lost: lostIds.length,
      lostIds,
      pushes: hook.bodies.length,
      duplicatePushes: hook.duplicates(),
      duplicatesAfterFault: hook.duplicates() - hook.duplicates(over),
      missingFinalPushes: [...withHook].filter((id) => stored.has(id) && !finals.has(id)).length,
      leftover: Number(left.rows[0]!.n),
      mcpRoundsAcrossInstances: mcpRounds,
      mcpFailures,
      requests,
      clientErrors,
      killed,
      followedAcross: followed,
      exited: processes.filter((p) => !p.alive && !killed.includes(p.pid)).length,
      duringFault:
        times && fault !== 'kill'
          ? { a2a: answers.during('a2a', times.at, times.back), mcp: answers.during('mcp', times.at, times.back) }
          : undefined,
      firstCompletedMs: firstCompleted,
      drainedMs,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    drain?.stop();
    for (const p of processes) await p.kill('SIGTERM').catch(() => undefined);
    await db.end().catch(() => undefined);
    await hook.close();
    await postgres.stop();
  }
}
