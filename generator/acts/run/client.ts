/**
 * @module acts/run/client — client tests (§10) against this repository's A2A client (runtime/a2a): a
 * loopback server answers every request with the step's `wire_payload`, the client performs the step's
 * operation, and what it returns is what `expect_parsed` is matched against.
 *
 * Reading of the format: a payload with `jsonrpc` is a JSON-RPC answer, read by the JSON-RPC transport; an
 * answer the client reports as an A2A error parses to `{error: {code, message, data}}` (CLIENT-PARSE-004
 * expects that shape). A payload without `jsonrpc` is the HTTP+JSON body: for `get_agent_card` the card,
 * read as `connect` reads it (from /.well-known/agent-card.json, checked before use). A streaming operation's
 * payload is served as one Server-Sent Event. A payload the client refuses (not valid for A2A 1.0) fails the
 * step with the client's reason.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { A2aClient, A2aClientError, connect, jsonRpcTransport, restTransport } from '@wiregen/runtime/a2a';
import { OPERATIONS } from '../wire/operations.ts';
import { StepFailure } from './result.ts';

/** Params the client sends for each method; the answer is what matters. */
const PARAMS: Readonly<Record<string, unknown>> = {
  SendMessage: { message: { messageId: 'acts-client', role: 'ROLE_USER', parts: [{ text: 'acts client test' }] } },
  SendStreamingMessage: { message: { messageId: 'acts-client', role: 'ROLE_USER', parts: [{ text: 'acts client test' }] } },
  GetTask: { id: 'acts-task' },
  ListTasks: {},
  CancelTask: { id: 'acts-task' },
  SubscribeToTask: { id: 'acts-task' },
  GetExtendedAgentCard: {},
  CreateTaskPushNotificationConfig: { taskId: 'acts-task', url: 'https://example.com/webhook' },
  GetTaskPushNotificationConfig: { taskId: 'acts-task', id: 'acts-config' },
  ListTaskPushNotificationConfigs: { taskId: 'acts-task' },
  DeleteTaskPushNotificationConfig: { taskId: 'acts-task', id: 'acts-config' },
};

/** A loopback server that answers with the payload of the step being run. */
export interface ClientHarness {
  parse(operation: string, payload: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function startClientHarness(): Promise<ClientHarness> {
  let payload: unknown;
  let streaming = false;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = JSON.stringify(payload);
      if (streaming) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${body}\n\n`);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const parse = async (operation: string, wirePayload: unknown): Promise<unknown> => {
    const op = OPERATIONS[operation]!;
    payload = wirePayload;
    streaming = op.streaming;
    try {
      if (op.method === undefined) return (await connect(base)).card;
      const envelope = typeof wirePayload === 'object' && wirePayload !== null && 'jsonrpc' in wirePayload;
      const client = new A2aClient(envelope ? jsonRpcTransport(`${base}/`) : restTransport(base));
      const params = PARAMS[op.method] as never;
      if (op.streaming) {
        const events: unknown[] = [];
        const stream = op.method === 'SendStreamingMessage' ? client.sendStreamingMessage(params) : client.subscribeToTask(params);
        for await (const e of stream) events.push(e);
        return events.length === 1 ? events[0] : events;
      }
      return await client.request(op.method, params);
    } catch (e) {
      if (e instanceof A2aClientError) return { error: { code: e.code, message: e.agentMessage, ...(e.data !== undefined ? { data: e.data } : {}) } };
      // The client's validation errors (an InvalidResultError's `errors`): the first, with its JSON pointer.
      const errors = (e as { errors?: unknown }).errors;
      const list = Array.isArray(errors) ? (errors as { instancePath?: string; message?: string }[]) : [];
      const first = list[0];
      const why = first ? `: ${first.instancePath || '(root)'} ${first.message ?? ''}${list.length > 1 ? ` (and ${list.length - 1} more)` : ''}` : '';
      throw new StepFailure({ message: `the client did not parse the payload: ${(e as Error).message}${why}` });
    }
  };
  return { parse, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
