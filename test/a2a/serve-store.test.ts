/**
 * @module test/a2a/serve-store — `wiregen serve <agent> --http <port> --store <scheme>`: the table of schemes
 * (generator/serve/store.ts). Two `wiregen serve research-agent` processes on one PostgreSQL share their
 * tasks: a task one creates, the other reads and lists, and a task waiting for input is answered through the
 * other. A scheme outside the table, a missing URL, --store with --stdio or for an MCP server is one line on
 * stderr and exit 2; a database that cannot be reached is one line, without the URL, and exit 1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aRpc, userMessage, type Json } from '../helpers/a2a-server.ts';
import { startAgent } from '../helpers/a2a-replay.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { runCli } from '../helpers/project.ts';

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
});

const serve = (store: string) =>
  startAgent([process.execPath, 'bin/wiregen.mjs', 'serve', 'research-agent', '--http', '0', '--exit-on-stdin-close', '--store', store]);

describe('wiregen serve --store', () => {
  it('postgres:<url>: two processes serving the agent share its tasks', async () => {
    const url = await postgres.createDatabase();
    const one = await serve(`postgres:${url}`);
    const two = await serve(url);
    try {
      const task = (await a2aRpc(one.url, 'SendMessage', userMessage('summarise the meeting'))).result.task as Json;
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect((await a2aRpc(two.url, 'GetTask', { id: task.id })).result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect((await a2aRpc(two.url, 'ListTasks', {})).result.tasks.map((t: Json) => t.id)).toEqual([task.id]);
      const answered = await a2aRpc(two.url, 'SendMessage', userMessage("Monday's", { taskId: task.id, contextId: task.contextId }));
      expect(answered.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await a2aRpc(one.url, 'GetTask', { id: task.id })).result.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await one.process.close();
      await two.process.close();
    }
    // Both left the cluster on the way out (stdin closed): no instance row, no lease.
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const { rows } = await db.query('SELECT (SELECT count(*) FROM a2a_instances)::int AS i, (SELECT count(*) FROM a2a_task_leases)::int AS l');
    await db.end();
    expect(rows[0]).toEqual({ i: 0, l: 0 });
  });

  it.each([
    [['bogus:x'], 2, /^wiregen serve: --store "bogus:x": the scheme is one of memory \| sqlite:<path> \| postgres:<url>$/],
    [['postgres:'], 2, /^wiregen serve: --store postgres:<url>: give the url$/],
    [['memory:x'], 2, /^wiregen serve: --store memory takes nothing after it/],
    [['memory', '--stdio'], 2, /^wiregen serve: --store is for A2A agents, served with --http <port>$/],
  ])('--store %j: one line, exit %i', async (args, code, line) => {
    const [store, ...rest] = args as string[];
    const http = rest.length ? rest : ['--http', '0'];
    const result = await runCli(['serve', 'research-agent', ...http, '--store', store!]);
    expect(result.code).toBe(code);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(line);
  });

  it('refuses --store for an MCP server, and names no password when the database cannot be reached', async () => {
    const mcp = await runCli(['serve', 'golden', '--http', '0', '--store', 'memory']);
    expect(mcp.code).toBe(2);
    expect(mcp.err).toEqual([expect.stringMatching(/^wiregen serve: --store is for A2A agents; golden is an MCP server/)]);
    const down = await runCli(['serve', 'research-agent', '--http', '0', '--store', 'postgres://u:secret-pw@127.0.0.1:1/none']);
    expect(down.code).toBe(1);
    expect(down.err).toHaveLength(1);
    expect(down.err[0]).toMatch(/^wiregen serve: --store postgres: /);
    expect(down.err[0]).not.toContain('secret-pw');
  });
});
