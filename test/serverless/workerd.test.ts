/**
 * @module test/serverless/workerd — fetch-only platform realities on real workerd, through miniflare
 * (test/serverless/on-workerd.mjs on Node 22, as test/bundle/workerd.test.ts): two named workers with one bundle
 * are two isolates of one Worker.
 *
 * - MCP (`mcpWorker`, fixtures/mcp-env-worker.ts): the server is made once per isolate; an MRTR round 1 on one
 *   isolate and round 2 on the other completes when both read the same MCP_REQUEST_STATE_SECRET, and is refused
 *   when each signs with its own random key; MCP_ALLOWED_HOSTS refuses another Host (403, the transports page's
 *   DNS-rebinding check); a malformed secret fails naming its binding; a listen stream is ended by the server
 *   after MAX_LISTEN_MS with its result.
 * - A2A: a non-blocking SendMessage's task completes after the answer when the handler has the platform's
 *   waitUntil, and not without it (fixtures/a2a-wait-worker.ts); the Worker of examples/a2a-worker (a2aWorker,
 *   tasks in a Durable Object) answers GetTask and ListTasks on the other isolate with the completed task.
 * Skipped, with the reason in the name, where miniflare or Node 22 is missing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../bench/lib/proc.ts';
import { MCP_REVISIONS, UNBUNDLED, WRANGLER_BUILD } from '../../bench/lib/worker-bundle.ts';
import { workerdNode as node22 } from '../../bench/lib/runtimes.ts';

const OUT = join(ROOT, 'node_modules', '.cache', 'wiregen-serverless');

/** Bundles `entry` as wrangler does (bench/lib/worker-bundle.ts's settings), serving 2026-07-28 only, `cloudflare:*` left to workerd. */
async function bundle(entry: string): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const outfile = join(OUT, `${entry.replace(/[/.]/g, '_')}.js`);
  await build({
    ...WRANGLER_BUILD,
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    tsconfig: join(ROOT, 'tsconfig.json'),
    external: [...WRANGLER_BUILD.external, 'cloudflare:*'],
    alias: Object.fromEntries(MCP_REVISIONS.filter((v) => v !== '2026-07-28').map((v) => [`@wiregen/mcp-${v}`, UNBUNDLED])),
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

interface Worker {
  readonly name: string;
  readonly bundle: string;
  readonly bindings?: Record<string, string>;
  readonly durableObjects?: Record<string, string | { className: string; scriptName: string }>;
}
interface Sent {
  readonly worker: string;
  readonly url: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: object;
  readonly waitMs?: number;
}
interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** What the workers logged (their console.error), by the last run of onWorkerd. */
let logged = '';

function onWorkerd(node: string, workers: readonly Worker[], requests: readonly Sent[]): Answer[] {
  const ran = spawnSync(node, [join(ROOT, 'test', 'serverless', 'on-workerd.mjs')], {
    input: JSON.stringify({ workers, requests }),
    timeout: 60_000,
    encoding: 'utf8',
  });
  if (ran.status !== 0) throw new Error(`on-workerd.mjs failed (${ran.status ?? ran.signal}): ${ran.stderr}`);
  logged = ran.stderr;
  return JSON.parse(ran.stdout) as Answer[];
}
const lines = (text: string) => logged.split('\n').filter((l) => l.includes(text));

/** The JSON-RPC messages of an answer: its JSON body, or every `data:` of its SSE body. */
const messages = (a: Answer): Record<string, any>[] =>
  a.contentType?.startsWith('text/event-stream') ? [...a.body.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!)) : [JSON.parse(a.body)];
const message = (a: Answer) => messages(a).at(-1)!;

const MCP_URL = 'http://mcp.example/mcp';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const SECRET = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i * 7)));

/** A 2026-07-28 request to `worker`. */
function mcp(worker: string, id: number, method: string, params: Record<string, unknown> = {}, extra: Partial<Sent> = {}): Sent {
  const name: Record<string, string> = typeof params['name'] === 'string' ? { 'mcp-name': params['name'] } : {};
  return {
    worker,
    url: MCP_URL,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
    },
    body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } },
    ...extra,
  };
}

const available = node22();
const skipped = 'missing' in available ? ` (skipped: ${available.missing})` : '';
const run = it.skipIf('missing' in available);
const nodeBin = () => (available as { node: string }).node;

describe(`mcpWorker on workerd: configuration from env, two isolates${skipped}`, () => {
  run('round 2 of an MRTR call completes on the other isolate with a shared secret, and is refused without', async () => {
    const file = await bundle('test/serverless/fixtures/mcp-env-worker.ts');
    const shared = { MCP_REQUEST_STATE_SECRET: SECRET };
    const round1 = (worker: string) => mcp(worker, 1, 'tools/call', { name: 'confirm', arguments: {} });
    // Round 1 goes to isolate a; its requestState is then sent to isolate b (the test fills it in below).
    const [first] = onWorkerd(nodeBin(), [{ name: 'a', bundle: file, bindings: shared }], [round1('a')]);
    const state = message(first!)['result'];
    expect(state).toMatchObject({ resultType: 'input_required' });
    const round2 = (worker: string) =>
      mcp(worker, 2, 'tools/call', {
        name: 'confirm',
        arguments: {},
        requestState: state['requestState'],
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      });
    const withSecret = onWorkerd(
      nodeBin(),
      [
        { name: 'a', bundle: file, bindings: shared },
        { name: 'b', bundle: file, bindings: shared },
      ],
      [round2('b'), mcp('b', 3, 'tools/call', { name: 'made', arguments: {} }), mcp('b', 4, 'tools/call', { name: 'made', arguments: {} })],
    );
    expect(message(withSecret[0]!)['result']).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'accept' }] });
    // Made once per isolate, on its first request: still once after three.
    expect(message(withSecret[2]!)['result']).toMatchObject({ content: [{ type: 'text', text: '1' }] });
    expect(lines('MCP_REQUEST_STATE_SECRET is not set')).toEqual([]);
    // Without the binding each isolate has its own random key: the token from elsewhere is refused, not run.
    const [firstAlone] = onWorkerd(nodeBin(), [{ name: 'a', bundle: file }], [round1('a'), round1('a')]);
    // Said once per isolate, on the request that made its server.
    expect(lines('MCP_REQUEST_STATE_SECRET is not set')).toHaveLength(1);
    const alone = message(firstAlone!)['result'];
    const [foreign] = onWorkerd(
      nodeBin(),
      [{ name: 'b', bundle: file }],
      [
        {
          ...round2('b'),
          body: { ...(round2('b').body as object), params: { ...(round2('b').body as any).params, requestState: alone['requestState'] } },
        },
      ],
    );
    expect(message(foreign!)['result']).toBeUndefined();
    expect(message(foreign!)['error']).toMatchObject({ code: expect.any(Number) });
  });

  run('MCP_ALLOWED_HOSTS refuses another Host; a malformed secret fails naming its binding; maxListenMs ends a listen', async () => {
    const file = await bundle('test/serverless/fixtures/mcp-env-worker.ts');
    const answers = onWorkerd(
      nodeBin(),
      [
        // miniflare sends each request with its loopback Host (127.0.0.1:<port>), whatever the URL names.
        { name: 'hosts', bundle: file, bindings: { MCP_ALLOWED_HOSTS: 'mcp.example, 127.0.0.1' } },
        { name: 'strict', bundle: file, bindings: { MCP_ALLOWED_HOSTS: 'mcp.example' } },
        { name: 'bad', bundle: file, bindings: { MCP_REQUEST_STATE_SECRET: btoa('sixteen bytes!!!') } },
        { name: 'listen', bundle: file, bindings: { MAX_LISTEN_MS: '400' } },
      ],
      [
        mcp('hosts', 1, 'tools/list'),
        mcp('strict', 2, 'tools/list'),
        mcp('bad', 3, 'tools/list'),
        mcp('listen', 4, 'subscriptions/listen', { notifications: { toolsListChanged: true } }),
      ],
    );
    expect(answers[0]!.status).toBe(200);
    expect(answers[1]!.status).toBe(403);
    expect(message(answers[1]!)['error']).toMatchObject({ message: 'Host is not allowed' });
    // An isolate with a malformed binding answers 500 and logs the binding's name.
    expect(answers[2]!.status).toBe(500);
    expect(message(answers[2]!)['error']).toMatchObject({ code: -32603 });
    expect(lines('MCP_REQUEST_STATE_SECRET: decodes to 16 bytes, expected 32')).toHaveLength(1);
    const listen = messages(answers[3]!);
    expect(listen[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    expect(listen.at(-1)).toMatchObject({ id: 4, result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 4 } } });
  });
});

const A2A = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const send = (worker: string, url: string): Sent => ({
  worker,
  url,
  headers: A2A,
  body: {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'Lisbon' }] }, configuration: { returnImmediately: true } },
  },
});
/** GetTask of the task the last SendMessage answered ("$task", filled in by on-workerd.mjs), after `waitMs`. */
const getTask = (worker: string, url: string, waitMs = 0): Sent => ({
  worker,
  url,
  headers: A2A,
  body: { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: '$task' } },
  waitMs,
});

describe(`A2A on workerd: work after the answer, tasks shared by isolates${skipped}`, () => {
  run("a non-blocking task completes after the answer with the platform's waitUntil, and not without", async () => {
    const file = await bundle('test/serverless/fixtures/a2a-wait-worker.ts');
    const url = 'http://slow.example/a2a';
    const states = (wait: 'on' | 'off') => {
      const [sent, later] = onWorkerd(
        nodeBin(),
        [{ name: wait, bundle: file, bindings: { WAIT_UNTIL: wait } }],
        [send(wait, url), getTask(wait, url, 800)],
      );
      return [message(sent!)['result']['task']['status']['state'], message(later!)['result']['status']['state']];
    };
    expect(states('on')).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_COMPLETED']);
    // Without it, workerd cancels what the request left running once its response has ended.
    expect(states('off')).toEqual(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']);
  });

  run('examples/a2a-worker: a task run by one isolate is read by GetTask and ListTasks on another (Durable Object store)', async () => {
    const file = await bundle('examples/a2a-worker/src/worker.ts');
    const url = 'http://forecaster.example/a2a';
    const [sent, got, listed, card] = onWorkerd(
      nodeBin(),
      [
        { name: 'a', bundle: file, durableObjects: { TASKS: 'TaskStoreObject' } },
        { name: 'b', bundle: file, durableObjects: { TASKS: { className: 'TaskStoreObject', scriptName: 'a' } } },
      ],
      [
        send('a', url),
        getTask('b', url, 800),
        { worker: 'b', url, headers: A2A, body: { jsonrpc: '2.0', id: 3, method: 'ListTasks', params: {} } },
        { worker: 'b', url: 'http://forecaster.example/.well-known/agent-card.json', method: 'GET' },
      ],
    );
    expect(message(sent!)['result']['task']['status']['state']).toBe('TASK_STATE_SUBMITTED');
    const task = message(got!)['result'];
    expect(task['status']['state']).toBe('TASK_STATE_COMPLETED');
    expect(task['artifacts'][0]['parts']).toEqual([{ text: 'Lisbon: sunny today, rain tomorrow.' }]);
    expect(message(listed!)['result']['tasks'].map((t: { id: string }) => t.id)).toEqual([task['id']]);
    expect(JSON.parse(card!.body)).toMatchObject({ name: 'Forecaster' });
  });
});
