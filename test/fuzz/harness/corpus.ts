/**
 * @module test/fuzz/harness/corpus — the messages a fuzz run starts from: what the clients sent in the
 * recorded sessions (test/fixtures/recordings: the official MCP and A2A SDKs), the official MCP schema's
 * examples (schemas/mcp/2026-07-28/examples), and the hardening probes (deep nesting, huge counts with a
 * progress token, deep client capabilities). `subscriptions/listen` is left out: it is a stream that is
 * answered only when it ends, so "one answer within 5 s" does not hold for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/project.ts';

export type Json = Record<string, unknown>;

export interface McpCorpus {
  /** 2026-07-28 messages (each with its `_meta` envelope) and the recorded server's tools called that way. */
  readonly stateless: readonly Json[];
  /** Handshake-era messages, sent after an initialize (the first entry is that initialize). */
  readonly handshake: readonly Json[];
  /** Lines that are not JSON, from the recordings. */
  readonly raw: readonly string[];
}

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'wiregen-fuzz', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} },
};

const stateless = (method: string, params: Json = {}, meta: Json = {}): Json => ({
  jsonrpc: '2.0',
  id: 0,
  method,
  params: { ...params, _meta: { ...META, ...meta } },
});

/** Nested arrays `depth` deep. */
export function nested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestedObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/**
 * The hardening probes, as text (deep values JSON.stringify cannot write); `"id":0` stands for an id
 * the sender makes unique (`probeLine`).
 */
export const PROBE_LINES: readonly string[] = [
  `{"jsonrpc":"2.0","id":0,"error":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
  `{"jsonrpc":"2.0","id":0,"error":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
  `{"jsonrpc":"2.0","id":0,"error":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  `{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"add","arguments":{"a":${'['.repeat(50_000)}${']'.repeat(50_000)},"b":1}}}`,
];

/** A raw line with its `"id":0` (if any) replaced by `"id":"raw-<serial>"`. */
export const probeLine = (line: string, serial: number): string =>
  line.replace(/^\{"jsonrpc":"2\.0","id":0,/, `{"jsonrpc":"2.0","id":"raw-${serial}",`);

export function loadMcpCorpus(): McpCorpus {
  const sessions = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/recordings/mcp_sdk_exchanges.json'), 'utf8')) as {
    mode?: string;
    messages: { from: string; json?: Json; raw?: string }[];
  }[];
  const modern: Json[] = [];
  const legacy: Json[] = [];
  const raw: string[] = [];
  for (const session of sessions)
    for (const m of session.messages) {
      if (m.from !== 'client') continue;
      if (m.raw !== undefined) raw.push(m.raw);
      else if (m.json && m.json['method'] !== 'subscriptions/listen') (session.mode === 'legacy' ? legacy : modern).push(m.json);
    }
  const examples = join(ROOT, 'schemas/mcp/2026-07-28/examples');
  for (const def of readdirSync(examples).sort())
    for (const file of readdirSync(join(examples, def)).sort()) {
      const json = JSON.parse(readFileSync(join(examples, def, file), 'utf8')) as Json;
      if (json['jsonrpc'] === '2.0' && json['method'] !== 'subscriptions/listen') modern.push(json);
    }
  modern.push(
    stateless('tools/call', { name: 'add', arguments: { a: 1, b: 2 } }),
    stateless('tools/call', { name: 'count', arguments: { n: 20 } }, { progressToken: 'p' }),
    stateless('tools/call', { name: 'count', arguments: { n: 2_000_000 } }, { progressToken: 'flood' }),
    stateless('tools/call', { name: 'count', arguments: { n: 1_000_000_000 } }),
    stateless('tools/call', { name: 'fail', arguments: { reason: 'fuzz' } }),
    stateless('tools/call', { name: 'read_doc', arguments: { uri: 'docs://readme' } }),
    stateless('tools/call', { name: 'delete_file', arguments: { path: '/tmp/x' }, requestState: 'mrtr1.W10.AAAA' }),
    stateless('tools/call', { name: 'summarise', arguments: { text: 'fuzz' } }),
    stateless('tools/list', {}, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: nestedObject(200) } }),
    stateless('ping', {}, { 'io.modelcontextprotocol/clientCapabilities': { roots: nested(150) } }),
    stateless('server/discover'),
  );
  const initialize = legacy.find((m) => m['method'] === 'initialize');
  if (!initialize) throw new Error('corpus: the recordings have no initialize');
  return { stateless: modern, handshake: [initialize, ...legacy.filter((m) => m !== initialize)], raw };
}

/** A2A JSON-RPC requests: what the recorded orchestrators sent, and calls on the research agent's paths. */
export function loadA2aCorpus(): readonly Json[] {
  const sessions = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/recordings/a2a_sdk_exchanges.json'), 'utf8')) as {
    messages: { from: string; json?: Json }[];
  }[];
  const out: Json[] = [];
  for (const session of sessions) for (const m of session.messages) if (m.from !== 'agent' && m.json?.['jsonrpc'] === '2.0') out.push(m.json);
  const send = (text: string, method = 'SendMessage'): Json => ({
    jsonrpc: '2.0',
    id: 0,
    method,
    params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text }] } },
  });
  out.push(
    send('summarise the fuzz notes'),
    send('hello'),
    send('delete everything'),
    send('summarise the meeting', 'SendStreamingMessage'),
    send('check my calendar', 'SendStreamingMessage'),
    { jsonrpc: '2.0', id: 0, method: 'ListTasks', params: {} },
    { jsonrpc: '2.0', id: 0, method: 'GetTask', params: { id: 'no-such-task' } },
  );
  return out;
}
