/**
 * @module test/a2a/sdk-client-serve — the official `@a2a-js/sdk` 1.3 client, as its users create it (from the
 * agent's URL: it reads the card and goes where the card says), against `wiregen serve test-runner --http 0`
 * over both bindings: the card names the address the agent listens on (or `--public-url`), a streamed run,
 * and a push round trip to a webhook on 127.0.0.1 (the spec's `webhooks.allowedHosts`; `--webhook-host` adds
 * hosts). Bad flags are one line and exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, type StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import { userMessage, webhookServer, type Json, type Webhook } from '../helpers/a2a-server.ts';
import { startAgent } from '../helpers/a2a-replay.ts';
import { runCli } from '../helpers/project.ts';
import { eventually } from '../helpers/wait.ts';
import { sdkFrame as frame } from './sdk-agent.ts';

const serve = (...flags: string[]) =>
  startAgent([process.execPath, 'bin/wiregen.mjs', 'serve', 'test-runner', '--http', '0', '--exit-on-stdin-close', ...flags]);
type Served = Awaited<ReturnType<typeof serve>>;

const RUN = 'run the unit suite at 4f2c9e1';
const run = (configuration?: Json) =>
  SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: RUN }] },
    ...(configuration ? { configuration } : {}),
  });

const FACTORIES = {
  JSONRPC: () => new ClientFactory({ transports: [new JsonRpcTransportFactory()] }),
  'HTTP+JSON': () => new ClientFactory({ transports: [new RestTransportFactory()] }),
};

let agent: Served;
let webhook: Webhook;
beforeAll(async () => {
  [agent, webhook] = await Promise.all([serve(), webhookServer()]);
});
afterAll(async () => {
  await agent?.process.close();
  await webhook?.close();
});

describe.each(Object.keys(FACTORIES) as (keyof typeof FACTORIES)[])('the @a2a-js/sdk client against wiregen serve test-runner, %s', (binding) => {
  let client: Client;
  beforeAll(async () => {
    client = await FACTORIES[binding]().createFromUrl(agent.url);
  });

  it('the card names where the agent listens, with the spec paths', async () => {
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.url])).toEqual([
      ['JSONRPC', `${agent.url}/jsonrpc`],
      ['HTTP+JSON', `${agent.url}/rest`],
    ]);
  });

  it('streams a run: the task, working, the log chunk by chunk, completed', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(run())) events.push(event);
    expect(events.map(frame)).toEqual([
      'task TASK_STATE_SUBMITTED',
      'statusUpdate TASK_STATE_WORKING',
      'artifactUpdate append=true lastChunk=false',
      'artifactUpdate append=true lastChunk=false',
      'artifactUpdate append=true lastChunk=false',
      'artifactUpdate append=true lastChunk=true',
      'statusUpdate TASK_STATE_COMPLETED',
    ]);
  });

  it('push round trip: a webhook on 127.0.0.1 is accepted and called; the config is read, listed and deleted', async () => {
    const token = `t-${binding}`;
    const result = await client.sendMessage(run({ taskPushNotificationConfig: { url: webhook.url, token } }));
    if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
    const taskId = result.id;
    const ours = () => webhook.received.filter((d) => d.headers['x-a2a-notification-token'] === token);
    await eventually(() => ours().some((d) => JSON.stringify(d.body).includes('TASK_STATE_COMPLETED')), 5000);
    for (const d of ours()) expect(JSON.stringify(d.body)).toContain(taskId);
    const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' });
    expect(listed.configs.map((c) => [c.url, c.token])).toEqual([[webhook.url, token]]);
    const id = listed.configs[0]!.id;
    expect((await client.getTaskPushNotificationConfig({ tenant: '', taskId, id })).url).toBe(webhook.url);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id });
    expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' })).configs).toEqual([]);
  });
});

describe('wiregen serve <agent> --public-url, --webhook-host', () => {
  let proxied: Served | undefined;
  afterAll(async () => {
    await proxied?.process.close();
  });

  it('--public-url: the cards name it, with the spec paths under it; --webhook-host allows that host too', async () => {
    proxied = await serve('--public-url', 'https://agents.example.com/runner/', '--webhook-host', 'Hooks.Example.com');
    const card = (await (await fetch(`${proxied.url}/.well-known/agent-card.json`)).json()) as Json;
    expect(card.supportedInterfaces.map((i: Json) => i.url)).toEqual([
      'https://agents.example.com/runner/jsonrpc',
      'https://agents.example.com/runner/rest',
    ]);
    // The routes stay where the spec puts them (the proxy strips its prefix).
    const rpc = async (method: string, params: Json): Promise<Json> => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
      const res = await fetch(`${proxied!.url}/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body,
      });
      return (await res.json()) as Json;
    };
    const taskId = (await rpc('SendMessage', userMessage(RUN))).result.task.id as string;
    const create = (url: string) => rpc('CreateTaskPushNotificationConfig', { taskId, url });
    expect((await create('https://hooks.example.com/a2a')).result).toMatchObject({ taskId, url: 'https://hooks.example.com/a2a' });
    expect((await create('http://127.0.0.1:9/hook')).result).toMatchObject({ url: 'http://127.0.0.1:9/hook' });
    expect((await create('https://elsewhere.example.com/a2a')).error).toMatchObject({ code: -32602 });
  });

  it.each([
    [['--public-url', 'ftp://agents.example.com'], /^wiregen serve: --public-url "ftp:\/\/agents.example.com": give an http:\/\/ or https:\/\/ URL$/],
    [['--public-url', 'agents.example.com'], /^wiregen serve: --public-url "agents.example.com" is not an absolute URL/],
    [['--webhook-host', 'bad host'], /^wiregen serve: --webhook-host "bad host" is not a host name/],
  ])('%j: one line, exit 2', async (flags, line) => {
    const result = await runCli(['serve', 'test-runner', '--http', '0', '--exit-on-stdin-close', ...flags]);
    expect([result.code, result.err]).toEqual([2, [expect.stringMatching(line)]]);
  });

  it('refuses them for an MCP server and with --stdio', async () => {
    const mcp = await runCli(['serve', 'golden', '--http', '0', '--public-url', 'https://x.example.com']);
    expect([mcp.code, mcp.err]).toEqual([2, [expect.stringMatching(/^wiregen serve: --public-url is for A2A agents; golden is an MCP server/)]]);
    const stdio = await runCli(['serve', 'golden', '--stdio', '--webhook-host', 'x.example.com']);
    expect([stdio.code, stdio.err]).toEqual([
      2,
      [expect.stringMatching(/^wiregen serve: --webhook-host is for A2A agents, served with --http <port>/)],
    ]);
  });
});
