/**
 * @module jsonrpc/message — the JSON-RPC 2.0 envelope (seed 001 §1): classifying one incoming message,
 * request ids (a string of at most 256 bytes or an int64 integer), error objects, and serialisation that
 * echoes an int64 id beyond 2^53 digit for digit.
 */

/** An int64 id too large for a JS number, kept as its decimal digits so it is echoed exactly. */
export class WideId {
  readonly digits: string;
  constructor(digits: string) {
    this.digits = digits;
  }
  toString(): string {
    return this.digits;
  }
}

export type RequestId = string | number | WideId;
export type JsonObject = Record<string, unknown>;

export const ErrorCode = {
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
  | { readonly kind: 'response'; readonly id: RequestId | null; readonly result?: unknown; readonly error?: { code: number; message: string; data?: unknown } }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly error: JsonRpcError }
  | { readonly kind: 'ignored'; readonly reason: string };

const MAX_ID_BYTES = 256;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The literal text of the top-level `"id"` member of a JSON object text, for ids that do not fit a double.
 * Only called on text that JSON.parse accepted, so the scan can be simple.
 */
export function idLiteral(text: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (depth === 1 && text.slice(start, i + 1) === '"id"') {
        let j = i + 1;
        while (' \t\r\n'.includes(text[j]!)) j++;
        if (text[j] !== ':') continue;
        j++;
        while (' \t\r\n'.includes(text[j]!)) j++;
        const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(j, j + 400));
        return m?.[0];
      }
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

/** Validates a request id; returns the id to use (a WideId for big int64s) or undefined when invalid. */
export function readId(value: unknown, text?: string): RequestId | undefined {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8') <= MAX_ID_BYTES ? value : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  if (Number.isSafeInteger(value)) return value;
  const literal = text === undefined ? undefined : idLiteral(text);
  if (literal === undefined || !/^-?\d+$/.test(literal)) return undefined;
  const big = BigInt(literal);
  return big >= INT64_MIN && big <= INT64_MAX ? new WideId(literal) : undefined;
}

function invalid(id: RequestId | null, code: number, message: string): Incoming {
  return { kind: 'invalid', id, error: new JsonRpcError(code, message) };
}

/** Classifies a parsed JSON value (`text` is its source, used only to keep wide ids exact). */
export function classify(value: unknown, text?: string): Incoming {
  if (Array.isArray(value)) return invalid(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported');
  if (!isObject(value)) return invalid(null, ErrorCode.InvalidRequest, 'Invalid Request: a message must be a JSON object');
  const hasId = Object.prototype.hasOwnProperty.call(value, 'id');
  const method = value['method'];
  // A response from the peer (no method, a result or an error): routed, never answered.
  if (method === undefined && ('result' in value || 'error' in value)) {
    const id = hasId ? (readId(value['id'], text) ?? null) : null;
    const error = value['error'];
    return isObject(error) ? { kind: 'response', id, error: error as { code: number; message: string } } : { kind: 'response', id, result: value['result'] };
  }
  // A notification (string method, no id) is never answered, even when malformed.
  if (typeof method === 'string' && !hasId) {
    if (value['jsonrpc'] !== '2.0') return { kind: 'ignored', reason: 'notification without jsonrpc "2.0"' };
    const params = value['params'];
    if (params !== undefined && !isObject(params)) return { kind: 'ignored', reason: 'notification params must be an object' };
    return { kind: 'notification', method, params };
  }
  const id = hasId ? readId(value['id'], text) : undefined;
  if (id === undefined)
    return invalid(null, ErrorCode.InvalidRequest, 'Invalid Request: id must be a string of at most 256 bytes or an int64 integer');
  if (value['jsonrpc'] !== '2.0') return invalid(id, ErrorCode.InvalidRequest, 'Expected a JSON-RPC 2.0 request');
  if (typeof method !== 'string') return invalid(id, ErrorCode.InvalidRequest, 'Invalid Request: method must be a string');
  const params = value['params'];
  if (params !== undefined && !isObject(params)) return invalid(id, ErrorCode.InvalidParams, 'Request params must be an object');
  return { kind: 'request', id, method, params };
}

/** Parses one frame of text; a frame that is not JSON is `ignored` unless `answerParseErrors`. */
export function parseFrame(text: string, answerParseErrors = false): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return answerParseErrors ? invalid(null, ErrorCode.ParseError, 'Parse error') : { kind: 'ignored', reason: 'not JSON' };
  }
  return classify(value, text);
}

const WIDE_MARK = `\u0000wide-${process.pid}-${Math.floor(Math.random() * 1e9)}:`;
const WIDE_PATTERN = new RegExp(`"${WIDE_MARK.replace('\u0000', '\\\\u0000')}(-?\\d+)"`, 'g');

/** Serialises a message to one line of JSON; WideIds are written as their digits. */
export function serialize(message: unknown): string {
  let wide = false;
  const text = JSON.stringify(message, (_key, value: unknown) => {
    if (value instanceof WideId) {
      wide = true;
      return WIDE_MARK + value.digits;
    }
    return value;
  });
  return wide ? text.replace(WIDE_PATTERN, '$1') : text;
}

/** Map key for an id: strings and numbers must not collide ("1" vs 1). */
export function idKey(id: RequestId): string {
  return typeof id === 'string' ? 's:' + id : 'n:' + String(id);
}

export function response(id: RequestId, result: unknown): JsonObject {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: RequestId | null, error: JsonRpcError): JsonObject {
  return { jsonrpc: '2.0', id, error: error.toJSON() };
}
