/**
 * The ACTS runner end to end against a tiny scripted A2A agent (JSON-RPC at /rpc, HTTP+JSON at /rest) and
 * suites of ours: abstract operations on both bindings, capture, repeat/until, expect_error, raw requests,
 * streams and their ordering, preconditions, a failing step's report, the §13 report and the CLI. The agent
 * and every expectation below are ours; the agent answers what the A2A 1.0 specification says
 * (https://a2a-protocol.org/latest/specification/), and a few of its answers are wrong on purpose.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadActs } from '../../generator/acts/format/load.ts';
import { runConformance } from '../../generator/acts/run/run.ts';
import type { TestResult } from '../../generator/acts/run/result.ts';
import { main } from '../../generator/cli.ts';

type Obj = Record<string, unknown>;
const tasks = new Map<string, { id: string; contextId: string; status: { state: string }; polls: number }>();
const notFound = {
  code: -32001,
  message: 'Task not found',
  data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
};
let n = 0;

/** The scripted behaviours, by the first part's text: `slow` works until polled twice, `regress` streams badly. */
function send(params: Obj): Obj {
  const text = String(((params['message'] as Obj)['parts'] as Obj[])[0]!['text']);
  const id = `task-${++n}`;
  const task = { id, contextId: `ctx-${n}`, status: { state: text.startsWith('slow') ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED' }, polls: 0 };
  tasks.set(id, task);
  const { polls: _, ...wire } = task;
  return { task: { ...wire, artifacts: [{ artifactId: 'a', parts: [{ text: `echo ${text}` }] }] } };
}
function getTask(id: string): Obj | undefined {
  const t = tasks.get(id);
  if (!t) return undefined;
  if (++t.polls >= 3) t.status = { state: 'TASK_STATE_COMPLETED' };
  return { id: t.id, contextId: t.contextId, status: t.status };
}
function streamEvents(params: Obj): Obj[] {
  const text = String(((params['message'] as Obj)['parts'] as Obj[])[0]!['text']);
  const up = (state: string) => ({ statusUpdate: { taskId: 's', contextId: 'c', status: { state } } });
  if (text.startsWith('regress')) return [up('TASK_STATE_COMPLETED'), up('TASK_STATE_WORKING')];
  return [
    { task: { id: 's', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } },
    up('TASK_STATE_WORKING'),
    { artifactUpdate: { taskId: 's', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x' }] } } },
    up('TASK_STATE_COMPLETED'),
  ];
}

async function handle(req: IncomingMessage, res: ServerResponse, base: string): Promise<unknown> {
  let body = '';
  for await (const c of req) body += c;
  const json = (status: number, v: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
  const sse = (events: unknown[]) =>
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
  const url = new URL(req.url!, base);
  if (url.pathname === '/.well-known/agent-card.json')
    return json(200, {
      name: 'scripted',
      version: '1.0.0',
      capabilities: { streaming: true },
      supportedInterfaces: [
        { url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
    });
  if (url.pathname === '/rpc') {
    let m: Obj;
    try {
      m = JSON.parse(body) as Obj;
    } catch {
      return json(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const params = (m['params'] ?? {}) as Obj;
    const reply = (result: unknown) => ({ jsonrpc: '2.0', id: m['id'], result });
    if (m['method'] === 'SendMessage') return json(200, reply(send(params)));
    if (m['method'] === 'GetTask') {
      const t = getTask(String(params['id']));
      return json(200, t ? reply(t) : { jsonrpc: '2.0', id: m['id'], error: notFound });
    }
    if (m['method'] === 'SendStreamingMessage') return sse(streamEvents(params).map(reply));
    return json(200, { jsonrpc: '2.0', id: m['id'], error: { code: -32601, message: 'Method not found' } });
  }
  if (url.pathname === '/rest/message:send' && req.method === 'POST') return json(200, send(JSON.parse(body) as Obj));
  if (url.pathname === '/rest/message:stream' && req.method === 'POST') return sse(streamEvents(JSON.parse(body) as Obj));
  const task = /^\/rest\/tasks\/([^/:]+)$/.exec(url.pathname);
  if (task && req.method === 'GET') {
    const t = getTask(decodeURIComponent(task[1]!));
    return t ? json(200, t) : json(404, { error: { code: 404, status: 'NOT_FOUND', message: 'Task not found', details: notFound.data } });
  }
  json(404, { error: { code: 404, status: 'NOT_FOUND', message: 'no route' } });
}

const OURS = `# Ours: a suite for the scripted agent of runner-server.test.ts.
acts_version: "1.0"
spec_version: "1.0"
variables:
  missingId: "00000000-0000-0000-0000-000000000000"
suites:
  - id: ours
    name: Our runner checks
    tests:
      - id: OURS-CAPTURE-001
        name: capture then get
        level: must
        steps:
          - id: send
            operation: send_message
            params: {message: {role: ROLE_USER, parts: [{text: "hello"}]}}
            expect: {status: 200, body: {task: {id: {type: string}, status: {state: TASK_STATE_COMPLETED}}}}
            capture: {taskId: task.id}
            assertions:
              - source: "{{send.response}}"
                any: {path: "task.artifacts[*].parts[*]", match: {text: {starts_with: "echo"}}}
          - id: get
            operation: get_task
            params: {id: "{{send.taskId}}"}
            expect: {body: {id: "{{send.taskId}}"}}
      - id: OURS-ERR-001
        name: a missing task is TaskNotFoundError
        level: must
        steps:
          - id: get
            operation: get_task
            params: {id: "{{missingId}}"}
            expect_error: {error_type: TaskNotFoundError, message: {contains: "not found"}, details: {type: array}}
      - id: OURS-POLL-001
        name: repeat until completed
        level: should
        steps:
          - id: start
            operation: send_message
            params: {message: {role: ROLE_USER, parts: [{text: "slow please"}]}}
            capture: {taskId: task.id}
          - id: poll
            operation: get_task
            params: {id: "{{start.taskId}}"}
            repeat: {until: "status.state == TASK_STATE_COMPLETED", max_attempts: 5, delay_ms: 10}
      - id: OURS-RAW-001
        name: raw bad JSON is a parse error
        level: must
        transport: [jsonrpc]
        steps:
          - id: bad
            raw: {method: POST, path: "/", headers: {Content-Type: application/json}, body_raw: "{oops"}
            expect: {status: 200, body: {error: {code: -32700}}}
      - id: OURS-STREAM-001
        name: a stream in order
        level: must
        steps:
          - id: stream
            operation: send_streaming_message
            params: {message: {role: ROLE_USER, parts: [{text: "go"}]}}
            expect_stream:
              min_count: 3
              ordering: monotonic_state
              events: [{index: 0, task: {status: {state: TASK_STATE_SUBMITTED}}}, {match: any_position, artifact_update: {artifact: {exists: true}}}]
              final_event: {status: {state: TASK_STATE_COMPLETED}}
      - id: OURS-STREAM-002
        name: a stream that regresses fails
        level: should
        steps:
          - id: stream
            operation: send_streaming_message
            params: {message: {role: ROLE_USER, parts: [{text: "regress"}]}}
            expect_stream: {ordering: monotonic_state}
      - id: OURS-FAIL-001
        name: a failing step is reported with what came back
        level: must
        steps:
          - id: send
            operation: send_message
            params: {message: {role: ROLE_USER, parts: [{text: "hello"}]}}
            expect: {body: {task: {status: {state: TASK_STATE_FAILED}}}}
          - id: never
            operation: get_task
            params: {id: x}
      - id: OURS-SKIP-001
        name: needs push notifications
        level: may
        preconditions: {capabilities: {pushNotifications: true}}
        steps:
          - id: s
            operation: get_task
            params: {id: x}
`;

let server: Server;
let base: string;
let file: string;
beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res, base));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'acts-ours-'));
  file = join(dir, 'ours.acts.yaml');
  writeFileSync(file, OURS);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const byId = (results: readonly TestResult[]) => Object.fromEntries(results.map((t) => [t.id, t]));

describe('a run against the scripted agent', () => {
  it('passes, fails and skips what it should, on both bindings', async () => {
    const reports = await runConformance({
      suites: loadActs(file),
      agentUrl: base,
      bindings: ['jsonrpc', 'rest'],
      level: 'may',
      variables: {},
      timeoutMs: 5000,
    });
    expect(reports.map((r) => r.transport)).toEqual(['jsonrpc', 'rest']);
    const [rpc, rest] = reports.map((r) => byId(r.suites[0]!.tests));
    for (const results of [rpc!, rest!]) {
      for (const id of ['OURS-CAPTURE-001', 'OURS-ERR-001', 'OURS-POLL-001', 'OURS-STREAM-001'])
        expect(results[id]!.result, `${id}: ${results[id]!.failure?.message}`).toBe('pass');
      expect(results['OURS-STREAM-002']!.result).toBe('fail');
      expect(results['OURS-STREAM-002']!.failure!.message).toMatch(/TASK_STATE_COMPLETED -> TASK_STATE_WORKING is an illegal transition/);
      expect(results['OURS-SKIP-001']).toMatchObject({
        result: 'skip',
        skip_reason: expect.stringMatching(/capability pushNotifications: true is not declared/),
      });
      const failed = results['OURS-FAIL-001']!;
      expect(failed).toMatchObject({
        result: 'fail',
        failure: { step_id: 'send', expected: '"TASK_STATE_FAILED"', actual: '"TASK_STATE_COMPLETED"', assertion_path: 'task.status.state' },
      });
      expect(failed.steps!.map((s) => s.result)).toEqual(['fail', 'skip']);
    }
    expect(rpc!['OURS-RAW-001']!.result).toBe('pass');
    expect(rest!['OURS-RAW-001']).toMatchObject({ result: 'skip', skip_reason: 'the test is for jsonrpc, not rest (§12.3)' });
    expect(reports[0]!.summary).toMatchObject({ total: 8, passed: 5, failed: 2, skipped: 1, errors: 0 });
    expect(reports[0]!.summary.by_level.must).toEqual({ total: 5, passed: 4, failed: 1, skipped: 0, errors: 0 });
  });

  it('the CLI prints the table, writes the §13 report and exits 1 on a failed must', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const json = join(mkdtempSync(join(tmpdir(), 'acts-report-')), 'r.json');
    const code = await main(
      ['a2a-conformance', base, '--suite', file, '--binding', 'jsonrpc', '--json', json],
      (l) => out.push(l),
      (l) => err.push(l),
    );
    expect(code).toBe(1);
    expect(out[0]).toMatch(/^jsonrpc: 5\/8 passed, 2 failed, 1 skipped, 0 errors/);
    expect(out).toContain('MUST:       4/5 passed (1 failed)');
    expect(err.filter((l) => l.startsWith('[jsonrpc '))).toHaveLength(8);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Obj;
    expect(Object.keys(report)).toEqual(['acts_version', 'spec_version', 'generated_at', 'sdk', 'transport', 'environment', 'summary', 'suites']);
    expect(report['sdk']).toEqual({ name: 'scripted', version: '1.0.0', language: 'unknown' });
    expect(String(report['generated_at'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('the CLI refuses bad input with one line and exit 2', async () => {
    const err: string[] = [];
    const run = (...args: string[]) =>
      main(
        ['a2a-conformance', ...args],
        () => {},
        (l) => err.push(l),
      );
    expect(await run(base, '--binding', 'grpc')).toBe(2);
    expect(await run('--level', 'must')).toBe(2);
    expect(await run(base, '--suite', 'no-such-suite')).toBe(2);
    expect(await run('http://127.0.0.1:9', '--suite', file)).toBe(2);
    expect(err[0]).toBe('wiregen a2a-conformance: --binding is jsonrpc, http-json or both, not "grpc"');
    expect(err[1]).toMatch(/give the agent URL/);
    expect(err[2]).toMatch(/^no-such-suite: no such file, shipped suite file or suite id/);
    expect(err[3]).toMatch(/cannot read the agent card at http:\/\/127\.0\.0\.1:9\//);
    const help: string[] = [];
    expect(await main(['a2a-conformance', '--help'], (l) => help.push(l))).toBe(0);
    expect(help[0]).toMatch(/^Usage: wiregen a2a-conformance <agent-url>/);
  });
});
