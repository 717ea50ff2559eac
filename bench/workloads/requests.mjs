// bench/workloads/requests — the four workloads as requests (2026-07-28 with its `_meta` envelope, and the
// 2025 revisions for the peers of that era), the answer bare node:http sends, and what an answer must hold to
// count: the same structuredContent, the same tool names, the same blob, and a rejection (isError or a
// JSON-RPC error) for the invalid arguments.
import { isDeepStrictEqual } from 'node:util';
import { ARGS, BLOB, BLOB_MIME, BLOB_URI, INVALID_ARGS, OUTPUT_SCHEMA, pullRequest, TOOLS } from './github.mjs';

export const WORKLOADS = [
  { name: 'tool', label: 'tools/call create_pull_request', method: 'tools/call', params: { name: 'create_pull_request', arguments: ARGS } },
  { name: 'list', label: 'tools/list 100 GitHub tools', method: 'tools/list', params: {} },
  { name: 'blob', label: 'resources/read 64 KB blob', method: 'resources/read', params: { uri: BLOB_URI } },
  {
    name: 'invalid',
    label: 'tools/call create_pull_request, invalid arguments',
    method: 'tools/call',
    params: { name: 'create_pull_request', arguments: INVALID_ARGS },
  },
];

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
export const modernBody = (w) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: w.method, params: { ...w.params, _meta: META } });
export const legacyBody = (w) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: w.method, params: w.params });

/** A 2026-07-28 request (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): mirrored headers. */
export function modernRequest(w, jsonOnly = false) {
  const headers = {
    'content-type': 'application/json',
    accept: jsonOnly ? 'application/json' : 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': w.method,
  };
  const name = w.params.name ?? w.params.uri;
  if (name) headers['mcp-name'] = name;
  return { headers, body: modernBody(w) };
}
/** The request of a peer of the 2025 era (`version`), JSON answers asked for where `jsonOnly`. */
export function legacyRequest(w, version, jsonOnly = false) {
  const accept = jsonOnly ? 'application/json' : 'application/json, text/event-stream';
  return { headers: { 'content-type': 'application/json', accept, 'mcp-protocol-version': version }, body: legacyBody(w) };
}

const blobText = Buffer.from(BLOB).toString('base64');
const PR = pullRequest(ARGS);
/** What bare node:http answers (the shape ours answers, precomputed). */
export function answerOf(w) {
  const result = {
    tool: { content: [{ type: 'text', text: JSON.stringify(PR) }], isError: false, structuredContent: PR },
    list: { tools: TOOLS.map((t) => (t.name === 'create_pull_request' ? { ...t, outputSchema: OUTPUT_SCHEMA } : t)) },
    blob: { contents: [{ uri: BLOB_URI, mimeType: BLOB_MIME, blob: blobText }] },
    invalid: { content: [{ type: 'text', text: 'Invalid arguments: /title is required; /draft must be boolean' }], isError: true },
  }[w.name];
  return { jsonrpc: '2.0', id: 1, result };
}

const NAMES = TOOLS.map((t) => t.name).sort();
/** Whether `json` is a right answer to workload `w`. */
export function answerOk(w, json) {
  const r = json?.result;
  if (w.name === 'tool') return isDeepStrictEqual(r?.structuredContent, PR) && r.isError !== true;
  if (w.name === 'list') return isDeepStrictEqual((r?.tools ?? []).map((t) => t.name).sort(), NAMES);
  if (w.name === 'blob') return r?.contents?.[0]?.blob === blobText && r.contents[0].uri === BLOB_URI;
  return r?.isError === true || (json?.error !== undefined && r === undefined);
}
