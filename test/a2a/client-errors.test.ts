/**
 * What our A2A client reports when the agent refuses a call, and when the card cannot be used: the same error
 * on both bindings, carrying the A2A error type (§3.3.2, §9.5), its JSON-RPC code (§5.4: -32001 over HTTP+JSON
 * too, the HTTP status beside it) and the reason in its message (the field violations of the details); a card
 * that is not JSON, not a valid AgentCard, names an undefined scheme or lists no binding the client speaks is
 * reported as such (InvalidAgentCardError), before credentials are looked at.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../generated/a2a-1.0/index.ts';
import { InvalidAgentCardError } from '../../runtime/a2a/client-card.ts';
import { A2aClientError, connect, jsonRpcTransport, restTransport, type Binding } from '../../runtime/a2a/client.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { testCard } from '../helpers/a2a-server.ts';

let agent: RunningA2aServer;
let server: A2aServer;
beforeAll(async () => {
  server = new A2aServer({
    card: testCard({ streaming: true, pushNotifications: true }),
    executor: {
      async execute(ctx) {
        const task = await ctx.startTask();
        await task.inputRequired(task.agentMessage('Which one?'));
      },
    },
    push: { allowedHosts: ['hooks.example.com'] },
    log: () => {},
  });
  agent = await listenA2aHttp(server, { host: '127.0.0.1', port: 0 });
  server.advertiseAt(agent.url);
});
afterAll(async () => {
  await agent?.close();
  await server?.close();
});

const BINDINGS: readonly [Binding, number | undefined][] = [
  ['JSONRPC', undefined],
  ['HTTP+JSON', 400],
];
const failure = (call: Promise<unknown>) => call.then(() => expect.fail('the call succeeded')).catch((e: unknown) => e as A2aClientError);

describe('errors the agent answers, on both bindings', () => {
  it.each(BINDINGS)('%s: a webhook host not allowed is an InvalidParamsError naming the field and the reason', async (binding, status) => {
    const { client } = await connect(agent.url, { binding });
    const sent = await client.sendMessage({ message: { messageId: `m-${binding}`, role: 'ROLE_USER', parts: [{ text: 'x' }] } });
    const err = await failure(client.createTaskPushNotificationConfig({ taskId: sent.task!.id, url: 'http://127.0.0.1:9/hook' }));
    expect(err).toBeInstanceOf(A2aClientError);
    expect(err).toMatchObject({
      message: 'InvalidParamsError: Validation failed: url: Webhook host 127.0.0.1 is not allowed.',
      type: 'InvalidParamsError',
      reason: 'INVALID_PARAMS',
      code: -32602,
      status,
      agentMessage: 'Validation failed',
      violations: [{ field: 'url', description: 'Webhook host 127.0.0.1 is not allowed.' }],
    });
  });

  it.each([
    ['JSONRPC', undefined],
    ['HTTP+JSON', 404],
  ] as const)('%s: an unknown task is TaskNotFoundError, code -32001', async (binding, status) => {
    const { client } = await connect(agent.url, { binding });
    expect(await failure(client.getTask({ id: 'nope' }))).toMatchObject({
      message: 'TaskNotFoundError: Task not found',
      type: 'TaskNotFoundError',
      reason: 'TASK_NOT_FOUND',
      code: -32001,
      status,
    });
    expect(await failure(client.subscribeToTask({ id: 'nope' })[Symbol.asyncIterator]().next())).toMatchObject({
      type: 'TaskNotFoundError',
      code: -32001,
    });
  });

  it('an unsupported version: VersionNotSupportedError with the agent message, the same code on both bindings', async () => {
    for (const transport of [jsonRpcTransport(`${agent.url}/a2a`, { version: '0.3' }), restTransport(`${agent.url}/rest`, { version: '0.3' })])
      expect(await failure(new Client(transport).getTask({ id: 'x' }))).toMatchObject({
        message: "VersionNotSupportedError: A2A version '0.3' is not supported by this handler. Expected version '1.0'.",
        code: -32009,
      });
  });

  it('HTTP+JSON: an error event in a stream (a google.rpc.Status, §11.7) ends it with the error, not as an event', async () => {
    const frames = [
      { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } },
      { error: { code: 500, status: 'INTERNAL', message: 'Internal error' } },
    ];
    const body = frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('');
    const fetchStub = (async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch;
    const seen: unknown[] = [];
    const err = await failure(
      (async () => {
        for await (const event of new Client(restTransport('http://agent.invalid/rest', { fetch: fetchStub })).sendStreamingMessage({
          message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] },
        }))
          seen.push(event);
      })(),
    );
    expect(seen).toEqual([frames[0]]);
    expect(err).toMatchObject({ message: 'InternalError: Internal error', type: 'InternalError', code: -32603, status: 500 });
  });

  it('a 401 in front of the agent names the challenge in the message', async () => {
    const challenge = 'Bearer realm="test", error="invalid_token"';
    const fetch401 = (async () =>
      new Response('{"error":"unauthorized"}', {
        status: 401,
        statusText: 'Unauthorized',
        headers: { 'www-authenticate': challenge },
      })) as typeof fetch;
    expect(await failure(new Client(jsonRpcTransport('http://agent.invalid/a2a', { fetch: fetch401 })).getTask({ id: 'x' }))).toMatchObject({
      message: `HTTP 401 Unauthorized (WWW-Authenticate: ${challenge})`,
      code: 401,
      status: 401,
      challenge,
      type: undefined,
    });
  });
});

describe('a card the client cannot use', () => {
  let http: Server;
  let card: unknown;
  let base: string;
  beforeAll(async () => {
    http = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(typeof card === 'string' ? card : JSON.stringify(card)),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    card = undefined;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const valid = () => ({ ...testCard(), supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] });

  it('not a valid AgentCard: said so, with the pointer, even when credentials are given', async () => {
    const { protocolVersion: _dropped, ...noVersion } = valid().supportedInterfaces[0]!;
    card = { ...valid(), supportedInterfaces: [noVersion], securityRequirements: [{ schemes: { bearer: { list: [] } } }] };
    const err = await connect(base, { auth: { bearer: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidAgentCardError);
    expect((err as Error).message).toBe(
      `agent card at ${base}/.well-known/agent-card.json is not a valid A2A 1.0 AgentCard: /supportedInterfaces/0: must have required property 'protocolVersion'`,
    );
  });

  it('a requirement naming a scheme the card does not define: said so, not blamed on credentials', async () => {
    card = {
      ...valid(),
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearr: { list: [] } } }],
    };
    await expect(connect(base, { auth: { bearer: 'x' } })).rejects.toThrow(
      `agent card at ${base}/.well-known/agent-card.json cannot be used: /securityRequirements/0/schemes/bearr: names security scheme "bearr", which /securitySchemes does not define`,
    );
  });

  it('no binding the client speaks, and a card that is not JSON', async () => {
    card = { ...valid(), supportedInterfaces: [{ url: `${base}/rest`, protocolBinding: 'HTTP_JSON', protocolVersion: '1.0' }] };
    await expect(connect(base)).rejects.toThrow(
      `agent card at ${base}/.well-known/agent-card.json cannot be used: /supportedInterfaces: lists no JSONRPC or HTTP+JSON interface (it lists "HTTP_JSON")`,
    );
    card = '<html>';
    await expect(connect(base)).rejects.toThrow(`agent card at ${base}/.well-known/agent-card.json is not JSON`);
  });
});
