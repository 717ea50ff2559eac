/**
 * @module mcp/stateless/request-state — requestState, what a handler keeps from one round of a multi round-trip
 * request to the next (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr): signed
 * with HMAC-SHA256 when a round ends with input_required (stateless/input-required.ts), verified when the
 * retry brings it back ({@link verifiedState}, the "requestState" step of stateless/request.ts).
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import { canonicalJson } from '../../jsonrpc/canonical.ts';
import type { MethodEntry } from '../../core/index.ts';
import { nodeCrypto } from '../node-builtins.ts';

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

/**
 * The data an earlier round kept, from the retry's `requestState` (verified: -32602 for a tampered, foreign or
 * expired token), for a method that has input rounds at all; undefined when there is none.
 */
export function verifiedState(codec: RequestStateCodec, entry: MethodEntry, method: string, params: JsonObject): unknown {
  const token = params['requestState'];
  return entry.inputRequired && typeof token === 'string' ? codec.verify(token, method, params) : undefined;
}
