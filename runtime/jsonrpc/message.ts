/**
 * @module jsonrpc/message — the JSON-RPC 2.0 envelope (https://www.jsonrpc.org/specification): classifying one
 * incoming message, request ids (a string of at most 256 bytes or an int64 integer), error objects, and
 * serialisation that echoes an int64 id beyond 2^53 digit for digit. A message nested deeper than
 * MAX_JSON_DEPTH (limits.ts) is classified without being walked: -32600, or -32602 when only `params` is deep.
 */
import { deepPointer, MAX_JSON_DEPTH, shortPointer, textExceedsDepth } from './limits.ts';
import { utf8Length } from './bytes.ts';
import { encodedOnce, stringifyOnce } from './reusable.ts';

/** An int64 id too large for a JS number, kept as its decimal digits so it is echoed exactly. */
export class WideId {
  readonly digits: string;
  constructor(digits: string) {
    this.digits = digits;
  }
  toString(): string {
    return this.digits;
  }
  /** What JSON.stringify writes for it: a sentinel string serialize() turns back into the bare digits. */
  toJSON(): string {
    return WIDE_SENTINEL + this.digits;
  }
}

export type RequestId = string | number | WideId;
export type JsonObject = Record<string, unknown>;

export const ErrorCode = {
  /** Not JSON-RPC's: what the MCP SDKs use for a request that got no answer in time. */
  RequestTimeout: -32001,
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** A JSON-RPC error to send: thrown by handlers, turned into an error response by the runtime. */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** One incoming message, classified. `invalid` messages are answered with `error` (id null when unusable). */
export type Incoming =
  | { readonly kind: 'request'; readonly id: RequestId; readonly method: string; readonly params: JsonObject | undefined }
  | { readonly kind: 'notification'; readonly method: string; readonly params: JsonObject | undefined }
  | {
      readonly kind: 'response';
      readonly id: RequestId | null;
      readonly result?: unknown;
      readonly error?: { code: number; message: string; data?: unknown };
    }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly error: JsonRpcError }
  | { readonly kind: 'ignored'; readonly reason: string };

const MAX_ID_BYTES = 256;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A JSON object (not null, not an array). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Unguessable per process so that no string in a message can pose as one; no `process.pid` (none on a Worker).
const WIDE_SENTINEL = `\u0000wide-${Math.floor(Math.random() * 1e9)}-${Math.floor(Math.random() * 1e9)}:`;

/**
 * Replaces integer literals that a double cannot hold (outside strings) with sentinel strings, so JSON.parse
 * keeps their digits. Only called when the text has a run of 16+ digits.
 */
function protectWideIntegers(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const m = /^-?\d+([.eE][-+\d.eE]*)?/.exec(text.slice(i, i + 512));
      if (!m) continue;
      if (m[1] === undefined && m[0].replace('-', '').length >= 16 && !Number.isSafeInteger(Number(m[0]))) {
        out += text.slice(last, i) + JSON.stringify(WIDE_SENTINEL + m[0]);
        last = i + m[0].length;
      }
      i += m[0].length - 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Where an int64 may stand for an id or token, so must keep its digits: as a WideId. */
const WIDE_PATHS: readonly (readonly string[])[] = [
  ['id'],
  ['params', 'requestId'],
  ['params', 'progressToken'],
  ['params', '_meta', 'progressToken'],
];

function unprotect(root: unknown): unknown {
  const fix = (value: unknown, path: readonly string[]): unknown => {
    if (typeof value !== 'string' || !value.startsWith(WIDE_SENTINEL)) return value;
    const digits = value.slice(WIDE_SENTINEL.length);
    const wide = WIDE_PATHS.some((p) => p.length === path.length && p.every((k, i) => k === path[i]));
    return wide ? new WideId(digits) : Number(digits);
  };
  // Iterative, so deeply nested input cannot exhaust the stack; only the first levels have paths that matter.
  const stack: { node: JsonObject | unknown[]; path: readonly string[] }[] = [];
  const push = (node: unknown, path: readonly string[]) => {
    if (node !== null && typeof node === 'object') stack.push({ node: node as JsonObject, path: path.length > 3 ? ['…'] : path });
  };
  push(root, []);
  while (stack.length) {
    const { node, path } = stack.pop()!;
    const entries: [string | number, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [k, v] of entries) {
      const childPath = [...path, String(k)];
      const fixed = fix(v, childPath);
      if (fixed !== v) (node as Record<string | number, unknown>)[k] = fixed;
      else push(v, childPath);
    }
  }
  return fix(root, []);
}

/**
 * JSON.parse that keeps the digits of an int64 beyond 2^53 where it is an id or a token (`id`,
 * `params.requestId`, progress tokens) as a WideId; elsewhere such a number is a (rounded) number as usual.
 */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const protectedText = protectWideIntegers(text);
  const value: unknown = JSON.parse(protectedText);
  return protectedText === text ? value : unprotect(value);
}

/**
 * `params` as schema validators see it: a WideId (an int64 id or token beyond 2^53) becomes a number there,
 * since a schema only says "integer". Returns `params` itself when it holds none (the usual case).
 */
export function forValidation(params: JsonObject): JsonObject {
  const meta = params['_meta'];
  const metaToken = meta !== null && typeof meta === 'object' ? (meta as JsonObject)['progressToken'] : undefined;
  if (!(params['requestId'] instanceof WideId || params['progressToken'] instanceof WideId || metaToken instanceof WideId)) return params;
  const out: JsonObject = { ...params };
  for (const key of ['requestId', 'progressToken']) if (out[key] instanceof WideId) out[key] = Number((out[key] as WideId).digits);
  if (metaToken instanceof WideId) out['_meta'] = { ...(meta as JsonObject), progressToken: Number(metaToken.digits) };
  return out;
}

/** Validates a request id (or token); returns the id to use or undefined when invalid. */
export function readId(value: unknown): RequestId | undefined {
  if (typeof value === 'string') return utf8Length(value) <= MAX_ID_BYTES ? value : undefined;
  if (value instanceof WideId) {
    const big = BigInt(value.digits);
    return big >= INT64_MIN && big <= INT64_MAX ? value : undefined;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function invalid(id: RequestId | null, code: number, message: string): Incoming {
  return { kind: 'invalid', id, error: new JsonRpcError(code, message) };
}

/** Classifies a parsed JSON value (parse with parseJson so wide ids keep their digits). */
export function classify(value: unknown): Incoming {
  if (Array.isArray(value)) return invalid(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported');
  if (!isObject(value)) return invalid(null, ErrorCode.InvalidRequest, 'Invalid Request: a message must be a JSON object');
  const hasId = Object.hasOwn(value, 'id');
  const method = value['method'];
  // A response from the peer (no method, a result or an error): routed, never answered.
  if (method === undefined && ('result' in value || 'error' in value)) {
    const id = hasId ? (readId(value['id']) ?? null) : null;
    const error = value['error'];
    if ('error' in value) {
      // An error member that is not an error object is still a failure, not a result.
      const valid = isObject(error) && typeof error['code'] === 'number' && typeof error['message'] === 'string';
      return {
        kind: 'response',
        id,
        error: valid
          ? (error as { code: number; message: string })
          : { code: ErrorCode.InternalError, message: `malformed error response: ${brief(error)}` },
      };
    }
    return { kind: 'response', id, result: value['result'] };
  }
  // A notification (string method, no id) is never answered, even when malformed.
  if (typeof method === 'string' && !hasId) {
    if (value['jsonrpc'] !== '2.0') return { kind: 'ignored', reason: 'notification without jsonrpc "2.0"' };
    const params = value['params'];
    if (params !== undefined && !isObject(params)) return { kind: 'ignored', reason: 'notification params must be an object' };
    return { kind: 'notification', method, params };
  }
  const id = hasId ? readId(value['id']) : undefined;
  if (id === undefined)
    return invalid(null, ErrorCode.InvalidRequest, 'Invalid Request: id must be a string of at most 256 bytes or an int64 integer');
  if (value['jsonrpc'] !== '2.0') return invalid(id, ErrorCode.InvalidRequest, 'Expected a JSON-RPC 2.0 request');
  if (typeof method !== 'string') return invalid(id, ErrorCode.InvalidRequest, 'Invalid Request: method must be a string');
  const params = value['params'];
  if (params !== undefined && !isObject(params)) return invalid(id, ErrorCode.InvalidParams, 'Request params must be an object');
  return { kind: 'request', id, method, params };
}

/** At most 200 characters of JSON for a message naming a value; never throws (a value may be too deep to write). */
function brief(value: unknown): string {
  let text: string;
  try {
    text = deepPointer(value, 16) === undefined ? String(JSON.stringify(value)) : '(nested too deep to show)';
  } catch {
    text = '(not JSON)';
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Classifies a message nested deeper than `max` (its text said so) without walking it: a request whose only
 * deep member is `params` is -32602 with its id; a notification is ignored (never answered); a response is
 * routed as the failure -32600 (never answered); anything else is -32600, with its id when it has a usable one.
 */
export function classifyDeep(value: unknown, max = MAX_JSON_DEPTH): Incoming {
  const tooDeep = `nested deeper than ${max} levels`;
  if (!isObject(value)) return invalid(null, ErrorCode.InvalidRequest, `Invalid Request: message ${tooDeep}`);
  const deep = Object.keys(value).filter((key) => deepPointer(value[key], max, 1) !== undefined);
  const id = Object.hasOwn(value, 'id') && !deep.includes('id') ? (readId(value['id']) ?? null) : null;
  const method = value['method'];
  if (method === undefined && ('result' in value || 'error' in value))
    return { kind: 'response', id, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: response ${tooDeep}` } };
  if (typeof method === 'string' && !Object.hasOwn(value, 'id')) return { kind: 'ignored', reason: `notification ${tooDeep}` };
  if (deep.length === 1 && deep[0] === 'params' && id !== null && value['jsonrpc'] === '2.0' && typeof method === 'string') {
    const at = shortPointer(`/params${deepPointer(value['params'], max, 1)!}`);
    return invalid(id, ErrorCode.InvalidParams, `Invalid params: ${at} is ${tooDeep}`);
  }
  return invalid(id, ErrorCode.InvalidRequest, `Invalid Request: message ${tooDeep}`);
}

/**
 * Parses and classifies one message's text (JSON.parse does not recurse, so any depth parses; a text nested
 * deeper than MAX_JSON_DEPTH is then classified by classifyDeep). Throws a SyntaxError when it is not JSON.
 */
export function parseMessage(text: string): Incoming {
  const value = parseJson(text);
  return textExceedsDepth(text) ? classifyDeep(value) : classify(value);
}

/** Parses one frame of text; a frame that is not JSON is `ignored` unless `answerParseErrors`. */
export function parseFrame(text: string, answerParseErrors = false): Incoming {
  try {
    return parseMessage(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return answerParseErrors ? invalid(null, ErrorCode.ParseError, 'Parse error') : { kind: 'ignored', reason: 'not JSON' };
  }
}

/** The sentinel as JSON.stringify writes it (the NUL escaped): what serialize() looks for. */
const WIDE_WRITTEN = JSON.stringify(WIDE_SENTINEL).slice(1, -1);
const WIDE_PATTERN = new RegExp(`"${WIDE_WRITTEN.replace(/\\/g, '\\\\')}(-?\\d+)"`, 'g');

/** Serialises a message to one line of JSON; WideIds are written as their digits. */
export function serialize(message: unknown): string {
  // No replacer (it would run for every member): WideId.toJSON writes its sentinel, found by one search.
  const text = JSON.stringify(message) as string | undefined;
  if (text === undefined) throw new TypeError('serialize: the message is not JSON');
  return text.includes(WIDE_WRITTEN) ? text.replace(WIDE_PATTERN, '$1') : text;
}

/** An id as JSON: a WideId as its digits, a string quoted, a number as JSON.stringify writes it. */
function idJson(id: RequestId): string {
  return id instanceof WideId ? id.digits : JSON.stringify(id);
}

/**
 * The text of `response(id, result)`, as serialize() writes it, without building the envelope object: its
 * constant parts are written around the id's JSON and the result's (the result JSON.stringify'd once, as
 * part of nothing larger). A result JSON cannot hold throws, as serialize() does.
 */
export function serializeResult(id: RequestId, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${idJson(id)}${member('result', result)}}`;
}

/** The text of the notification `{jsonrpc, method, params}`, written as serializeResult writes a response. */
export function serializeNotification(method: string, params: unknown): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)}${member('params', params)}}`;
}

/** `,"<name>":<JSON of value>`, WideIds as their digits; nothing for a value JSON.stringify leaves out. */
function member(name: 'result' | 'params', value: unknown): string {
  // A reusable value (reusable.ts: deep-frozen, e.g. a catalog's page of tools/list) is stringified once.
  const text = stringifyOnce(value, wideDigits);
  return text === undefined ? '' : `,"${name}":${text}`;
}

/** JSON text with each WideId's sentinel written as its digits. */
const wideDigits = (json: string): string => (json.includes(WIDE_WRITTEN) ? json.replace(WIDE_PATTERN, '$1') : json);

const encoder = new TextEncoder();

/**
 * The UTF-8 of serializeResult(id, result) when `result` is reusable (reusable.ts), made from the result's
 * bytes encoded once: a transport that sends bytes sends these (FrameMeta.utf8).
 */
export function encodedResult(id: RequestId, result: object): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`{"jsonrpc":"2.0","id":${idJson(id)},"result":`);
  const body = encodedOnce(result, wideDigits);
  const out = new Uint8Array(head.length + body.length + 1);
  out.set(head);
  out.set(body, head.length);
  out[out.length - 1] = 0x7d; // '}'
  return out;
}

/** Map key for an id: strings and numbers must not collide ("1" vs 1). */
export function idKey(id: RequestId): string {
  return typeof id === 'string' ? `s:${id}` : `n:${String(id)}`;
}

export function response(id: RequestId, result: unknown): JsonObject {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: RequestId | null, error: JsonRpcError): JsonObject {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}
