/**
 * @module test/a2a/store-unavailable — an agent whose task store cannot be reached (its database down or
 * restarting) answers a retryable error at once on both bindings: JSON-RPC -32603 saying to retry (HTTP 200
 * with Retry-After), HTTP+JSON 503 with Retry-After and gRPC status UNAVAILABLE; a store failing otherwise
 * still answers an internal error.
 * And which PostgreSQL errors count as the database being unreachable (runtime/a2a/postgres/errors.ts; the
 * SQLSTATEs are PostgreSQL's, https://www.postgresql.org/docs/current/errcodes-appendix.html). Cases are ours.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isConnectionError, unavailableOr } from '../../runtime/a2a/postgres/errors.ts';
import { InMemoryTaskStore, StoreUnavailableError, TaskConflictError } from '../../runtime/a2a/store.ts';
import type { AgentExecutor, Task } from '../../runtime/a2a/types.ts';
import { agentPool, userMessage, type Json } from '../helpers/a2a-server.ts';

/** A store that fails every read while `failure` is set. */
class FlakyStore extends InMemoryTaskStore {
  failure: Error | undefined;
  override async getTask(id: string): Promise<Task | undefined> {
    if (this.failure) throw this.failure;
    return super.getTask(id);
  }
}

const executor: AgentExecutor = {
  async execute(ctx) {
    const task = await ctx.startTask();
    await task.complete();
  },
};

const pool = agentPool();
afterEach(() => pool.closeAll());

describe('an agent whose task store is unreachable', () => {
  const start = async () => {
    const store = new FlakyStore();
    const agent = await pool.start({ executor, store });
    const { task } = (await agent.rpc('SendMessage', userMessage('hi'))).result as Json;
    return { store, agent, id: task.id as string };
  };

  it('answers JSON-RPC -32603 saying to retry, promptly', async () => {
    const { store, agent, id } = await start();
    store.failure = new StoreUnavailableError('postgres://127.0.0.1:5432/agent is unavailable: connect ECONNREFUSED');
    const began = Date.now();
    const reply = await agent.rpc('GetTask', { id });
    expect(reply.error).toEqual({ code: -32603, message: 'The task store is unavailable: retry shortly' });
    expect(Date.now() - began).toBeLessThan(1000);
    const raw = await fetch(`${agent.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id } }),
    });
    expect([raw.status, raw.headers.get('retry-after')]).toEqual([200, '1']);
  });

  it('answers HTTP+JSON 503 with Retry-After and gRPC status UNAVAILABLE', async () => {
    const { store, agent, id } = await start();
    store.failure = new StoreUnavailableError('down');
    const reply = await agent.rest('GET', `/rest/tasks/${id}`);
    expect(reply.status).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect((reply.json as Json).error).toMatchObject({ code: 503, status: 'UNAVAILABLE', message: 'The task store is unavailable: retry shortly' });
  });

  it('still answers an internal error when the store fails otherwise', async () => {
    const { store, agent, id } = await start();
    store.failure = new Error('disk full');
    const reply = await agent.rest('GET', `/rest/tasks/${id}`);
    expect(reply.status).toBe(500);
    expect(reply.headers['retry-after']).toBeUndefined();
  });
});

/** A node-postgres-like error: a message and a code (SQLSTATE or socket errno). */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

const cases: [string, { given: unknown; want: boolean }][] = [
  ['connection refused (server stopped)', { given: pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), want: true }],
  ['connection reset', { given: pgError('read ECONNRESET', 'ECONNRESET'), want: true }],
  [
    '57P01 admin_shutdown (pg_terminate_backend, fast shutdown)',
    { given: pgError('terminating connection due to administrator command', '57P01'), want: true },
  ],
  ['57P03 cannot_connect_now (starting up, shutting down)', { given: pgError('the database system is shutting down', '57P03'), want: true }],
  ['08006 connection_failure', { given: pgError('connection failure', '08006'), want: true }],
  ['the connection ended under a query', { given: pgError('Connection terminated unexpectedly'), want: true }],
  ['the pool timed out connecting', { given: pgError('timeout exceeded when trying to connect'), want: true }],
  ['refused on every address', { given: new AggregateError([pgError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), want: true }],
  ['23505 unique_violation', { given: pgError('duplicate key value violates unique constraint', '23505'), want: false }],
  ['42P01 undefined_table', { given: pgError('relation "a2a_tasks" does not exist', '42P01'), want: false }],
  ['a version conflict', { given: new TaskConflictError('t', 1), want: false }],
  ['not an Error', { given: 'ECONNREFUSED', want: false }],
];

describe('isConnectionError', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(isConnectionError(given)).toBe(want);
    const converted = unavailableOr(given, 'postgres://127.0.0.1:5432/agent');
    if (want) {
      expect(converted).toBeInstanceOf(StoreUnavailableError);
      expect((converted as Error).message).toMatch(/^postgres:\/\/127\.0\.0\.1:5432\/agent is unavailable: /);
    } else expect(converted).toBe(given);
  });
});
