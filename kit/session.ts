/**
 * @module kit/session — what a scenario works with: the network, its recorder, typed clients (the generated
 * A2A `Client` on the runtime's JSON-RPC or HTTP+JSON transport, through the recorder), user messages with
 * ids from the client side's seeded generator, raw requests for what a client would never send, and checks
 * that stop the capture when an agent answers other than the scenario expects.
 */
import { Client } from '../generated/a2a-1.0/index.ts';
import { A2aClientError, jsonRpcTransport, restTransport } from '../runtime/a2a/client.ts';
import type { Message, Part, Task, TaskState } from '../runtime/a2a/types.ts';
import { DEPLOY_TOKEN, interfaceUrl, WRITTEN, type AgentName, type KitNetwork } from './network.ts';
import type { Recorder } from './recorder.ts';

export type Binding = 'jsonrpc' | 'rest';

export interface ClientOptions {
  /** The deployer's bearer token: the demo token by default for the deployer, null for none. */
  readonly token?: string | null;
}

export interface RawRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  /** A value is sent as JSON; a string as it is (e.g. a malformed body). */
  readonly body?: unknown;
}

export interface Session {
  readonly net: KitNetwork;
  readonly rec: Recorder;
  /** Values one scenario leaves for a later one (e.g. a task id), by name. */
  readonly state: Map<string, string>;
  client(agent: AgentName, binding?: Binding, options?: ClientOptions): Client;
  /** A user message with a fresh messageId. */
  message(text: string, extra?: { taskId?: string; contextId?: string; parts?: Part[] }): Message;
  /** A request as written (`path` under the agent's written address); the answer's status and body text. */
  raw(agent: AgentName | 'url', path: string, request?: RawRequest): Promise<{ status: number; text: string; json: any }>;
  /** Adds the webhook receptions so far (after every delivery started has arrived) as exchanges. */
  recordPushes(): Promise<number>;
  /** Writes a file beside the transcript. */
  write(name: string, text: string): void;
}

export function createSession(
  net: KitNetwork,
  rec: Recorder,
  state: Map<string, string>,
  clientIds: () => string,
  files: Record<string, string>,
): Session {
  return {
    net,
    rec,
    state,
    client(agent, binding = 'jsonrpc', options = {}) {
      const token = options.token === undefined ? (agent === 'deployer' ? DEPLOY_TOKEN : null) : options.token;
      const transportOptions = { fetch: rec.fetch, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) };
      return new Client(
        binding === 'jsonrpc'
          ? jsonRpcTransport(interfaceUrl(agent, 'JSONRPC'), transportOptions)
          : restTransport(interfaceUrl(agent, 'HTTP+JSON'), transportOptions),
      );
    },
    message(text, extra = {}) {
      const { parts, ...ids } = extra;
      return { messageId: clientIds(), role: 'ROLE_USER', parts: parts ?? [{ text }], ...ids };
    },
    async raw(agent, path, request = {}) {
      const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      const res = await rec.fetch(agent === 'url' ? path : WRITTEN[agent] + path, {
        method: request.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: request.headers ?? {},
        ...(body === undefined ? {} : { body }),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json };
    },
    async recordPushes() {
      await net.pushesSettled();
      const receptions = net.receiver.take();
      for (const [i, r] of receptions.entries()) rec.received(r, WRITTEN.webhooks, `webhook ${i + 1} of ${receptions.length}: ${pushKind(r.body)}`);
      return receptions.length;
    },
    write(name, text) {
      files[name] = text;
    },
  };
}

function pushKind(body: string): string {
  const update = JSON.parse(body) as Record<string, any>;
  if (update.statusUpdate) return `statusUpdate ${update.statusUpdate.status.state}`;
  if (update.artifactUpdate) return `artifactUpdate ${update.artifactUpdate.artifact.name ?? ''}`.trim();
  return Object.keys(update).join(', ');
}

// ---- checks: a capture that sees something else stops, naming what it saw ----------------------------------

export class CaptureError extends Error {
  override readonly name = 'CaptureError';
}

/** The task of a SendMessage answer (or the task itself), in `state`. */
export function expectTask(answer: { task?: Task; message?: Message } | Task, state: TaskState): Task {
  const task = 'status' in answer ? answer : answer.task;
  if (!task) throw new CaptureError(`expected a task in ${state}, got ${JSON.stringify(answer)}`);
  if (task.status.state !== state) throw new CaptureError(`expected task ${task.id} in ${state}, got ${task.status.state}`);
  return task;
}

export function expectMessage(answer: { task?: Task; message?: Message }): Message {
  if (!answer.message) throw new CaptureError(`expected a message, got ${JSON.stringify(answer)}`);
  return answer.message;
}

/** Awaits a call that must fail with `code` (a JSON-RPC code, or the HTTP status over HTTP+JSON). */
export async function expectError(call: Promise<unknown>, code: number): Promise<A2aClientError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof A2aClientError && (err.code === code || err.status === code)) return err;
    throw new CaptureError(`expected error ${code}, got ${(err as Error).message} (${(err as A2aClientError).code})`);
  }
  throw new CaptureError(`expected error ${code}, but the call succeeded`);
}

/** A raw answer's status (and, for JSON-RPC, error code). */
export function expectStatus(answer: { status: number; json: any }, status: number, rpcCode?: number): void {
  const code = answer.json?.error?.code;
  if (answer.status !== status || (rpcCode !== undefined && code !== rpcCode))
    throw new CaptureError(
      `expected HTTP ${status}${rpcCode !== undefined ? ` with ${rpcCode}` : ''}, got HTTP ${answer.status} ${JSON.stringify(answer.json)}`,
    );
}

/** One capture step: writes `<base>.http` (and events files), or only the files it writes itself. */
export interface Scenario {
  readonly base: string;
  readonly summary: string;
  run(s: Session): Promise<void>;
}

type Frame = { task?: Task; statusUpdate?: { status: { state: TaskState } }; message?: Message; artifactUpdate?: unknown };

/** Every frame of a stream, to its end. */
export async function collect<T>(frames: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

/** The state a stream's frames leave the task in. */
function lastState(frames: readonly Frame[]): TaskState | undefined {
  let state: TaskState | undefined;
  for (const f of frames) state = f.statusUpdate?.status.state ?? f.task?.status.state ?? state;
  return state;
}

export function expectFinalState(frames: readonly Frame[], state: TaskState): void {
  const last = lastState(frames);
  if (last !== state) throw new CaptureError(`expected the stream to end in ${state}, it ended in ${last}`);
}
