/**
 * @module mcp/stateless/mrtr — multi round-trip requests (MCP 2026-07-28, https://modelcontextprotocol.io/specification/2026-07-28): the signal a handler raises
 * to ask for input, the client-capability check (-32021), and requestState signed with HMAC-SHA256.
 */
import { ErrorCode, isObject, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import { canonicalJson } from '../../jsonrpc/canonical.ts';
import { missingClientCapability } from '../server/errors.ts';
import { nodeCrypto } from '../node-builtins.ts';
import { gateOpen, type Revision } from '../revisions.ts';
import type { WireInputRequest } from '../server/types.ts';

/** Raised inside a handler (through ctx.input) to end this round with an input_required result. */
export class InputRequired {
  readonly requests: Readonly<Record<string, WireInputRequest>>;
  constructor(requests: Readonly<Record<string, WireInputRequest>>) {
    this.requests = requests;
  }
}

/** Deep-merges capability objects (`{sampling: {}}` + `{sampling: {tools: {}}}`). */
function merge(into: JsonObject, add: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(add)) into[k] = isObject(into[k]) && isObject(v) ? merge({ ...(into[k] as JsonObject) }, v) : v;
  return into;
}

function nest(path: readonly string[]): JsonObject {
  return path.reduceRight<JsonObject>((inner, key) => ({ [key]: inner }), {});
}

/**
 * The client capabilities one input request needs that `caps` lacks: the gate the manifest gives its method,
 * refined by the request's shape (elicitation mode, sampling tools and context; the specification's multi round-trip requests).
 */
export function missingCapabilities(request: WireInputRequest, caps: JsonObject, revision: Revision): JsonObject[] {
  const params = request.params ?? {};
  const needs: string[][] = (revision.lookup(request.method)?.capabilities ?? []).filter((g) => g.side === 'client').map((g) => [...g.path]);
  if (request.method === 'elicitation/create') {
    const elicitation = caps['elicitation'];
    if (params['mode'] === 'url') needs.push(['elicitation', 'url']);
    // Form mode: an empty `elicitation` object counts as form support.
    else if (isObject(elicitation) && Object.keys(elicitation).length > 0) needs.push(['elicitation', 'form']);
  }
  if (request.method === 'sampling/createMessage') {
    if (params['tools'] !== undefined || params['toolChoice'] !== undefined) needs.push(['sampling', 'tools']);
    if (params['includeContext'] !== undefined && params['includeContext'] !== 'none') needs.push(['sampling', 'context']);
  }
  return needs.filter((path) => !gateOpen(caps, path)).map(nest);
}

/** Throws -32021 naming every capability the client lacks for `requests` (merged), if any. */
export function checkClientCapabilities(requests: Readonly<Record<string, WireInputRequest>>, caps: JsonObject, revision: Revision): void {
  const missing = Object.values(requests).flatMap((r) => missingCapabilities(r, caps, revision));
  if (missing.length) throw missingClientCapability(missing.reduce(merge, {}));
}

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

/** The bytes of `text` when it is canonical unpadded base64url (decode then encode gives it back), else undefined. */
export function canonicalBase64url(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

/** Constant-time equality of two strings (their UTF-8 bytes); different lengths are unequal at once. */
export function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && nodeCrypto().timingSafeEqual(x, y);
}
export const INVALID_STATE = 'Invalid or expired request state';
const MAX_TOKEN_BYTES = 16 * 1024;

/**
 * requestState tokens: `mrtr1.<base64url payload>.<base64url HMAC-SHA256>`. The payload is
 * `[1, issuedAt, expiresAt, scope, data]` (whole seconds; valid through expiresAt); scope binds the token to the method and its params (without
 * _meta, inputResponses and requestState), so a token from one call fails on another. Signed, not encrypted.
 */
export class RequestStateCodec {
  /** Given, or drawn when first needed (node:crypto is not loaded before). */
  #secret: Buffer | undefined;
  readonly #ttlSeconds: number;
  readonly #now: () => number;

  constructor(secret?: Buffer, ttlSeconds = 300, now: () => number = () => Date.now()) {
    if (secret && secret.length < 32) throw new Error('requestState secret must be at least 32 bytes');
    this.#secret = secret;
    this.#ttlSeconds = ttlSeconds;
    this.#now = now;
  }

  #mac(label: string, text: string): Buffer {
    const crypto = nodeCrypto();
    this.#secret ??= crypto.randomBytes(32);
    return crypto.createHmac('sha256', this.#secret).update(`wiregen-mrtr-${label}-v1:${text}`).digest();
  }

  #scope(method: string, params: JsonObject): string {
    const { _meta, inputResponses, requestState, ...rest } = params;
    return b64url(this.#mac('scope', canonicalJson([method, rest])));
  }

  sign(method: string, params: JsonObject, data: unknown): string {
    const now = Math.floor(this.#now() / 1000);
    const payload = b64url(JSON.stringify([1, now, now + this.#ttlSeconds, this.#scope(method, params), data ?? null]));
    return `mrtr1.${payload}.${b64url(this.#mac('token', payload))}`;
  }

  /** Returns the data a valid token carries; throws -32602 for a tampered, foreign or expired one. */
  verify(token: string, method: string, params: JsonObject): unknown {
    const fail = () => new JsonRpcError(ErrorCode.InvalidParams, INVALID_STATE);
    if (token.length > MAX_TOKEN_BYTES) throw fail();
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'mrtr1') throw fail();
    // Canonical encoding only: Buffer.from(…, 'base64url') skips characters outside the alphabet and ignores
    // the unused low bits of the last character, so many texts decode to the signature; only the one sign()
    // writes is accepted.
    const given = canonicalBase64url(parts[2]!);
    const payloadBytes = canonicalBase64url(parts[1]!);
    if (!given || !payloadBytes) throw fail();
    const expected = this.#mac('token', parts[1]!);
    if (given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) throw fail();
    let payload: unknown;
    try {
      payload = JSON.parse(payloadBytes.toString('utf8'));
    } catch {
      throw fail();
    }
    if (!Array.isArray(payload) || payload.length !== 5 || payload[0] !== 1) throw fail();
    const [, , expiresAt, scope, data] = payload as [number, number, number, string, unknown];
    if (typeof expiresAt !== 'number' || Math.floor(this.#now() / 1000) > expiresAt) throw fail();
    if (typeof scope !== 'string' || !equalText(scope, this.#scope(method, params))) throw fail();
    return data;
  }
}
