/**
 * @module test/fuzz/harness/oracle — what JSON-RPC 2.0 (https://www.jsonrpc.org/specification) and the MCP
 * base protocol (https://modelcontextprotocol.io/specification/2026-07-28/basic) say about a message, written
 * from those texts and not from the runtime: what a sent text asks for (an answer with its id, an answer with
 * id null, or none), and whether a text the server wrote is a valid JSON-RPC message. Ids are compared by
 * key: strings as themselves, numbers as JSON.parse reads them (a fuzzer's wide ids are spaced so that
 * rounding keeps them apart).
 */

/** What the server owes a message the fuzzer sent. */
export type Expectation =
  /** A request with a usable id: exactly one response with that id. */
  | { readonly kind: 'answer'; readonly key: string; readonly method: string }
  /** Something answered with an error whose id is null (an unusable id, not an object, not JSON when answered). */
  | { readonly kind: 'null-answer' }
  /** A notification, a response, or a line the server may ignore: no answer at all. */
  | { readonly kind: 'none' }
  /** Either an answer with id null or nothing (JSON-RPC leaves it to the server: text that is not JSON). */
  | { readonly kind: 'null-or-none' };

/** The key of a valid id (JSON-RPC: a string or a number; MCP: a string of at most 256 bytes or an int64 integer). */
export function idKey(id: unknown): string | undefined {
  if (typeof id === 'string') return Buffer.byteLength(id, 'utf8') <= 256 ? `s:${id}` : undefined;
  if (typeof id !== 'number' || !Number.isInteger(id)) return undefined;
  // The int64 range is a property of the text: what JSON.stringify writes for the double (and what a server
  // echoes, digit for digit), e.g. -2^63 is written -9223372036854776000, below the int64 minimum.
  const text = String(id);
  if (!/^-?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= -(2n ** 63n) && value < 2n ** 63n ? `n:${text}` : undefined;
}

/** The text as the server receives it: UTF-8 on the wire, so a lone surrogate arrives as U+FFFD. */
export const onTheWire = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a text sent over a JSON-RPC connection (stdio, or a POST body) is owed. `parseErrorsAnswered`: the
 * server answers text that is not JSON with -32700 (else it may ignore it, as MCP stdio servers do).
 */
export function expectationOf(text: string, parseErrorsAnswered = false): Expectation {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseErrorsAnswered ? { kind: 'null-answer' } : { kind: 'null-or-none' };
  }
  if (!isObject(value)) return { kind: 'null-answer' };
  const method = value['method'];
  // A response (no method; a result or an error) is never answered.
  if (method === undefined && ('result' in value || 'error' in value)) return { kind: 'none' };
  // A notification: a method and no id member. Never answered, even when malformed.
  if (typeof method === 'string' && !Object.hasOwn(value, 'id')) return { kind: 'none' };
  const key = Object.hasOwn(value, 'id') ? idKey(value['id']) : undefined;
  if (key === undefined) return { kind: 'null-answer' };
  return { kind: 'answer', key, method: typeof method === 'string' ? method : '' };
}

/** A message the server wrote, as the fuzzer reads it. */
export type Written =
  | { readonly kind: 'response'; readonly key: string | null; readonly errorCode?: number }
  | { readonly kind: 'request'; readonly id: unknown; readonly method: string }
  | { readonly kind: 'notification'; readonly method: string };

/**
 * JSON-RPC 2.0's own rule for an id (a string, or a number that is an integer; A2A adds no limit of its own),
 * for protocols without MCP's 256 bytes and int64.
 */
export function jsonRpcIdKey(id: unknown): string | undefined {
  if (typeof id === 'string') return `s:${id}`;
  return typeof id === 'number' && Number.isInteger(id) ? `n:${id}` : undefined;
}

/**
 * Reads a text the server wrote; a string is the reason it is not a valid JSON-RPC 2.0 message. `keyOf` is
 * the protocol's rule for ids (default MCP's).
 */
export function readWritten(text: string, keyOf: (id: unknown) => string | undefined = idKey): Written | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  if (!isObject(value)) return 'not a JSON object';
  if (value['jsonrpc'] !== '2.0') return 'jsonrpc is not "2.0"';
  const method = value['method'];
  if (method !== undefined) {
    if (typeof method !== 'string') return 'method is not a string';
    if (value['params'] !== undefined && !isObject(value['params'])) return 'params is not an object';
    if ('result' in value || 'error' in value) return 'a request or notification with result or error';
    if (!Object.hasOwn(value, 'id')) return { kind: 'notification', method };
    if (keyOf(value['id']) === undefined) return `request id ${JSON.stringify(value['id'])} is not valid`;
    return { kind: 'request', id: value['id'], method };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) return 'a response needs exactly one of result and error';
  if (!Object.hasOwn(value, 'id')) return 'a response without id';
  const id = value['id'];
  const key = id === null ? null : keyOf(id);
  if (key === undefined) return `response id ${JSON.stringify(id)} is not valid`;
  if (hasError) {
    const error = value['error'];
    if (!isObject(error) || !Number.isInteger(error['code']) || typeof error['message'] !== 'string')
      return 'error is not {code: integer, message: string}';
    return { kind: 'response', key, errorCode: error['code'] as number };
  }
  return { kind: 'response', key };
}

/**
 * Internal errors are the server's own failures, never the right answer to what a client sent (the hardening work's
 * oracle): -32603 is a violation wherever it appears.
 */
export const INTERNAL_ERROR = -32603;

/** An HTTP body as the servers read it: a leading UTF-8 BOM dropped (RFC 8259 §8.1 lets a parser ignore it). */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
