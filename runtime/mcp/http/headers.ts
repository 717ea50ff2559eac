/**
 * @module mcp/http/headers — the request headers MCP 2026-07-28 mirrors from the body
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports): Mcp-Method, Mcp-Name (where the
 * manifest gives the params field) and Mcp-Param-* (a tool's `x-mcp-header` annotations). Values may be
 * base64-wrapped as `=?base64?…?=`. Every failure is -32020 (HTTP 400).
 */
import { fromBase64 } from '../../jsonrpc/bytes.ts';
import { JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { HttpRequest } from '../../transports/exchange.ts';
import { MCP_ERRORS } from '../protocol.ts';

/** What the checks read of a request: single header values. */
type Headers = Pick<HttpRequest, 'header'>;

/** HeaderMismatchError's code (schema `$defs/HeaderMismatchError`). */
export const HEADER_MISMATCH = MCP_ERRORS.headerMismatch;
const BASE64_WRAPPER = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
const PLAIN_VALUE = /^[\x20-\x7E\t]*$/;
/** An RFC 9110 token: what a valid `x-mcp-header` name is. */
const TOKEN = /^[!#$%&'*+\-.^_|~0-9A-Za-z]+$/;

const mismatch = (message: string, data?: unknown) => new JsonRpcError(HEADER_MISMATCH, message, data);

/**
 * HeaderMismatchError (-32020): the MCP-Protocol-Version header and the `_meta` version differ
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports).
 */
export const headerMismatch = (header: string, body: string) => mismatch('Protocol header does not match request metadata', { header, body });
const missing = (name: string) => mismatch(`Missing or repeated required header: ${name.toLowerCase()}`);

/** Decodes a header value: the base64 wrapper (UTF-8 inside) or plain visible ASCII; undefined when malformed. */
export function decodeHeaderValue(raw: string): string | undefined {
  const m = BASE64_WRAPPER.exec(raw);
  if (m) {
    // Canonical base64 only (missing padding or stray bits are refused: bytes.ts).
    const bytes = fromBase64(m[1]!);
    if (!bytes) return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  return PLAIN_VALUE.test(raw) ? raw : undefined;
}

/**
 * A header that must be present once and equal `expected` (after decoding). A wrapped header's plain value may
 * hold a comma (a name, a URI), so where repeats arrive joined (fetch) a repeat shows as a mismatch instead.
 */
function mirrored(req: Headers, name: string, expected: string, wrapped: boolean): JsonRpcError | undefined {
  const raw = req.header(name.toLowerCase(), wrapped);
  if (raw === undefined || raw === null) return missing(name);
  const value = wrapped ? decodeHeaderValue(raw) : raw;
  if (value === undefined) return mismatch(`${name} is malformed`);
  return value === expected ? undefined : mismatch(`${name} does not match the request body`);
}

/** One mirrored argument: the header it travels in, the argument and its JSON type. */
export interface ParamHeader {
  readonly property: string;
  readonly type: string;
  /** The header as written: `Mcp-Param-<annotation>`. */
  readonly name: string;
}

interface Annotations {
  /** The valid annotations, by lower-case header name. Duplicates (ignoring case) are invalid: neither is mirrored. */
  readonly headers: ReadonlyMap<string, ParamHeader>;
  /** What is wrong: a name that is not an RFC 9110 token, a type other than string/integer/boolean, a name used twice ignoring case. */
  readonly problems: readonly string[];
}

const NO_ANNOTATIONS: Annotations = { headers: new Map(), problems: [] };
/** A tool's schema is read once: the hot tools/call path asks for its headers on every request. */
const annotationsOf = new WeakMap<JsonObject, Annotations>();

/** A tool inputSchema's `x-mcp-header` annotations: the headers to mirror and what is wrong with them. */
export function headerAnnotations(inputSchema: JsonObject | undefined): Annotations {
  if (!inputSchema) return NO_ANNOTATIONS;
  let found = annotationsOf.get(inputSchema);
  if (found) return found;
  const headers = new Map<string, ParamHeader>();
  const problems: string[] = [];
  const seen = new Set<string>();
  const props = inputSchema['properties'];
  if (props !== null && typeof props === 'object')
    for (const [property, schema] of Object.entries(props as JsonObject)) {
      if (schema === null || typeof schema !== 'object' || !('x-mcp-header' in schema)) continue;
      const name = (schema as JsonObject)['x-mcp-header'];
      const type = (schema as JsonObject)['type'];
      const token = typeof name === 'string' && TOKEN.test(name);
      const typed = type === 'string' || type === 'integer' || type === 'boolean';
      if (!token) problems.push(`${property}: x-mcp-header ${JSON.stringify(name)} is not a header token`);
      else if (seen.has(name.toLowerCase())) problems.push(`${property}: x-mcp-header ${name} is used twice`);
      if (!typed) problems.push(`${property}: x-mcp-header on a ${JSON.stringify(type)} property`);
      if (typeof name === 'string') seen.add(name.toLowerCase());
      if (!token || !typed) continue;
      const key = `mcp-param-${name.toLowerCase()}`;
      if (headers.has(key)) headers.delete(key);
      else headers.set(key, { property, type: type as string, name: `Mcp-Param-${name}` });
    }
  found = { headers, problems };
  annotationsOf.set(inputSchema, found);
  return found;
}

function paramMatches(type: string, header: string, value: unknown): boolean {
  if (type === 'integer') return /^-?\d+$/.test(header) && typeof value === 'number' && Number(header) === value;
  if (type === 'boolean') return typeof value === 'boolean' && header === String(value);
  return typeof value === 'string' && header === value;
}

/**
 * Checks the mirrored headers of one request; returns the -32020 error to answer, or undefined.
 * `mcpName` is the params field the manifest says Mcp-Name mirrors; `toolSchema` the called tool's inputSchema.
 */
export function checkMirroredHeaders(
  req: Headers,
  method: string,
  params: JsonObject,
  mcpName: string | undefined,
  toolSchema: JsonObject | undefined,
): JsonRpcError | undefined {
  const methodError = mirrored(req, 'Mcp-Method', method, false);
  if (methodError) return methodError;
  if (mcpName !== undefined) {
    const nameError = mirrored(req, 'Mcp-Name', String(params[mcpName] ?? ''), true);
    if (nameError) return nameError;
  }
  if (method !== 'tools/call') return undefined;
  const args = (params['arguments'] ?? {}) as JsonObject;
  for (const [key, { property, type, name }] of headerAnnotations(toolSchema).headers) {
    const value = args[property];
    const raw = req.header(key, true);
    if (value === undefined || value === null) {
      if (raw !== undefined) return mismatch(`${name} does not match the request body`);
      continue;
    }
    if (raw === undefined || raw === null) return missing(name);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return mismatch(`${name} is malformed`);
    if (!paramMatches(type, decoded, value)) return mismatch(`${name} does not match the request body`);
  }
  return undefined;
}
