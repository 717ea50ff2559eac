/**
 * @module test/scale/harness/instance — one instance process of the scale run (run.ts), on 127.0.0.1:
 *
 *   node --import tsx instance.ts a2a <database url> <instance id> <lease ms>
 *   node --import tsx instance.ts a2a-memory
 *   node --import tsx instance.ts mcp <requestState key, hex> [<database url>]
 *
 * `a2a`: an A2aServer on the shared PostgreSQL (PostgresCluster) whose agent works a task in a few steps
 * (artifact chunks), asks for input when the text is "ask", completes at once when it is "quick" (the bench,
 * bench/scale/), and is cancellable; a task adopted from a killed instance is resumed from the steps done; `a2a-memory`: the same agent alone, on the in-memory store. `mcp`: a 2026-07-28 McpServer
 * whose tool `confirm` keeps state in requestState and asks for one input (an elicitation); with a database,
 * its catalog changes travel on PostgreSQL (mcpNotificationBus: a LISTEN connection of its own). Prints `READY
 * <url>` on stdout once it listens; runs until it is killed (SIGTERM: a clean close; SIGKILL: the test).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { listenA2aHttp } from '../../../runtime/a2a/http.ts';
import pg from 'pg';
import { PostgresBus } from '../../../runtime/a2a/postgres/bus.ts';
import { PostgresCluster } from '../../../runtime/a2a/postgres/cluster.ts';
import { mcpNotificationBus } from '../../../runtime/a2a/postgres/mcp-bus.ts';
import { A2aServer } from '../../../runtime/a2a/server.ts';
import type { AgentCard, AgentExecutor, Message, TaskHandle } from '../../../runtime/a2a/types.ts';
import { listenMcpHttp } from '../../../runtime/mcp/http/handler.ts';
import { McpServer } from '../../../runtime/mcp/server/server.ts';
import type { InputRequest } from '../../../runtime/mcp/server/types.ts';
import { RESUMED } from './processes.ts';

/** How many steps a task takes, and how long each (ms). */
export const STEPS = 4;
export const STEP_MS = 60;

const CARD: AgentCard = {
  name: 'scale agent',
  description: 'Works each task in a few steps; used by npm run scale.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'work', name: 'work', description: 'works', tags: ['scale'] }],
};

/** The steps of a task from `from` on (1: a new task; more: a task resumed after its instance died). */
async function work(task: TaskHandle, text: string, signal: AbortSignal, from: number, last?: Message): Promise<void> {
  if (text === 'ask') return task.inputRequired(task.agentMessage('which one?'));
  if (text === 'quick') {
    await task.artifact({ artifactId: 'out', parts: [{ text: 'done' }], lastChunk: true });
    return task.complete();
  }
  for (let step = from; step <= STEPS; step++) {
    await sleep(STEP_MS);
    if (signal.aborted) return;
    await task.artifact({ artifactId: 'out', parts: [{ text: `step ${step}` }], append: step > 1, lastChunk: step === STEPS });
  }
  await task.complete(last);
}

const executor: AgentExecutor = {
  async execute(ctx) {
    if (ctx.task) {
      const task = ctx.currentTask();
      await task.working();
      return task.complete(task.agentMessage(`answered: ${ctx.text}`));
    }
    const task = await ctx.startTask();
    await task.working();
    return work(task, ctx.text, ctx.signal, 1);
  },
  /** A task adopted from a killed instance goes on from the steps its artifact holds; it completes saying so. */
  async resume(ctx) {
    const task = ctx.currentTask();
    const done = ctx.task?.artifacts?.find((a) => a.artifactId === 'out')?.parts.length ?? 0;
    return work(task, ctx.text, ctx.signal, done + 1, task.agentMessage(RESUMED));
  },
};

async function a2a(url: string | undefined, instanceId: string, leaseMs: number): Promise<() => Promise<void>> {
  const cluster = url === undefined ? undefined : await PostgresCluster.open(url, { instanceId, leaseMs, maxConnections: 8 });
  const server = new A2aServer({
    card: CARD,
    executor,
    ...(cluster ? { cluster } : {}),
    recovery: { recoverEveryMs: Math.max(100, leaseMs / 4) },
    push: { allowedHosts: ['127.0.0.1'], backoffMs: 50, timeoutMs: 2000 },
    log: (line) => process.stderr.write(`[${instanceId}] ${line}\n`),
  });
  await server.ready();
  const http = await listenA2aHttp(server, { port: 0 });
  process.stdout.write(`READY ${http.url}\n`);
  return async () => {
    await http.close();
    await server.close();
  };
}

const CONFIRM: InputRequest<'elicitation/create'> = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
};

async function mcp(keyHex: string, url: string | undefined): Promise<() => Promise<void>> {
  const pool = url === undefined ? undefined : new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5000 });
  // An idle connection's error (the database restarting) is the pool's to replace.
  pool?.on('error', () => undefined);
  const bus = pool && new PostgresBus(pool, { log: (line) => process.stderr.write(`[mcp] ${line}\n`) });
  const server = new McpServer({
    serverInfo: { name: 'scale-mcp', version: '1.0.0' },
    capabilities: { handshake: { tools: {} }, stateless: { tools: {} } },
    requestStateSecret: Buffer.from(keyHex, 'hex'),
    ...(bus ? { notificationBus: mcpNotificationBus(bus) } : {}),
    log: (line) => process.stderr.write(`[mcp] ${line}\n`),
    handlers: {
      'tools/call': async (params, ctx) => {
        // Round 1 keeps the caller's argument in requestState; round 2 (on any instance sharing the key) reads it back.
        if (ctx.state === undefined) ctx.keepState({ n: (params['arguments'] as { n?: number } | undefined)?.n ?? 0, pid: process.pid });
        const answer = await ctx.input('confirm', CONFIRM);
        return { content: [{ type: 'text', text: JSON.stringify({ state: ctx.state, action: answer.action, pid: process.pid }) }] };
      },
    },
  });
  const http = await listenMcpHttp(server, { port: 0 });
  process.stdout.write(`READY ${http.url}\n`);
  return async () => {
    await http.close();
    await bus?.close();
    await pool?.end();
  };
}

async function main(): Promise<void> {
  const [kind, ...args] = process.argv.slice(2);
  const close =
    kind === 'a2a'
      ? await a2a(args[0]!, args[1]!, Number(args[2]))
      : kind === 'a2a-memory'
        ? await a2a(undefined, 'memory', 0)
        : kind === 'mcp'
          ? await mcp(args[0]!, args[1])
          : undefined;
  if (!close) throw new Error(`usage: instance.ts a2a <url> <id> <lease ms> | a2a-memory | mcp <key hex> [<url>]`);
  process.once('SIGTERM', () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`instance failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
