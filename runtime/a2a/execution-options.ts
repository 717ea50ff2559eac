/**
 * @module a2a/execution-options — what the executions (executions.ts) are given by the server, and the shapes
 * of one execution: the run a message starts, and a task's running execution.
 */
import type { StreamResponse } from '@wiregen/a2a-1.0';
import type { LazyAbort } from '../jsonrpc/incoming.ts';
import type { TaskLedger } from './ledger.ts';
import type { PushSender } from './push.ts';
import type { AsyncQueue } from './queue.ts';
import type { TaskStore } from './store.ts';
import type { A2aBehaviour, AgentCard, AgentExecutor, TaskHandle } from './types.ts';

/** What the executions read of the server's configuration. */
export interface ExecutionOptions {
  readonly card: AgentCard;
  readonly executor: AgentExecutor;
  readonly store: TaskStore;
  readonly behaviour: A2aBehaviour;
  readonly ids: () => string;
  readonly now: () => string;
  readonly push: PushSender;
  /** Where tasks are read and written (ledger.ts). */
  readonly ledger: TaskLedger;
  readonly log: (line: string) => void;
}

/** Task ids with an execution running, and how to stop it. */
export interface Running {
  /** Stops the execution (its ExecutionContext's signal, made when read). */
  readonly abort: LazyAbort;
  readonly handle: TaskHandle;
  readonly done: Promise<void>;
}

/** One message's execution: the events the caller streams, and the task it runs, once there is one. */
export interface Run {
  readonly events: AsyncQueue<StreamResponse>;
  finished: Promise<void>;
  taskId: string | undefined;
  /** The store was unavailable before the task reached the caller: the call is answered a retryable error. */
  unavailable?: boolean;
  /** A cluster's blocking SendMessage of a new task: the commit of its first event inserts it (executions.ts). */
  readonly storeWithFirstEvent?: boolean;
}
