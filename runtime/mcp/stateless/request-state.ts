/**
 * @module mcp/stateless/request-state — requestState, what a handler keeps from one round of a multi round-trip
 * request to the next (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr): signed
 * with HMAC-SHA256 when a round ends with input_required (stateless/input-required.ts), verified when the
 * retry brings it back ({@link verifiedState}, the "requestState" step of stateless/request.ts).
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import { canonicalJson } from '../../jsonrpc/canonical.ts';
import { equalBytes, fromBase64url, toBase64url, utf8 } from '../../jsonrpc/bytes.ts';
import type { MethodEntry } from '../../core/index.ts';

/** The bytes of `text` when it is canonical unpadded base64url (decode then encode gives it back), else undefined. */
export const canonicalBase64url = (text: string): Uint8Array | undefined => (text.length > 0 ? fromBase64url(text) : undefined);

/** Constant-time equality of two strings (their UTF-8 bytes); different lengths are unequal at once. */
export const equalText = (a: string, b: string): boolean => equalBytes(utf8(a), utf8(b));

export const INVALID_STATE = 'Invalid or expired request state';
const MAX_TOKEN_BYTES = 16 * 1024;

/**
 * requestState tokens: `mrtr1.<base64url payload>.<base64url HMAC-SHA256>`. The payload is
 * `[1, issuedAt, expiresAt, scope, data]` (whole seconds; valid through expiresAt); scope binds the token to the method and its params (without
 * _meta, inputResponses and requestState), so a token from one call fails on another. Signed, not encrypted.
 *
 * The HMAC is Web Crypto's (`crypto.subtle`), present in Node, Bun, Deno and Workers without `nodejs_compat`;
 * it is asynchronous, so signing and verifying are too (both run inside the asynchronous serving of a request:
 * stateless/request.ts).
 */
export class RequestStateCodec {
  /** The HMAC key, imported when first needed (a secret is drawn then when none was given: never at import). */
  #key: ReturnType<typeof crypto.subtle.importKey> | undefined;
  readonly #secret: Uint8Array | undefined;
  readonly #ttlSeconds: number;
  readonly #now: () => number;

  constructor(secret?: Uint8Array, ttlSeconds = 300, now: () => number = () => Date.now()) {
    if (secret && secret.length < 32) throw new Error('requestState secret must be at least 32 bytes');
    this.#secret = secret && Uint8Array.from(secret);
    this.#ttlSeconds = ttlSeconds;
    this.#now = now;
  }

  async #mac(label: string, text: string): Promise<Uint8Array> {
    this.#key ??= crypto.subtle.importKey(
      'raw',
      this.#secret ?? crypto.getRandomValues(new Uint8Array(32)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key, utf8(`wiregen-mrtr-${label}-v1:${text}`)));
  }

  async #scope(method: string, params: JsonObject): Promise<string> {
    const { _meta, inputResponses, requestState, ...rest } = params;
    return toBase64url(await this.#mac('scope', canonicalJson([method, rest])));
  }

  async sign(method: string, params: JsonObject, data: unknown): Promise<string> {
    const now = Math.floor(this.#now() / 1000);
    const payload = toBase64url(JSON.stringify([1, now, now + this.#ttlSeconds, await this.#scope(method, params), data ?? null]));
    return `mrtr1.${payload}.${toBase64url(await this.#mac('token', payload))}`;
  }

  /** Returns the data a valid token carries; throws -32602 for a tampered, foreign or expired one. */
  async verify(token: string, method: string, params: JsonObject): Promise<unknown> {
    const fail = () => new JsonRpcError(ErrorCode.InvalidParams, INVALID_STATE);
    if (token.length > MAX_TOKEN_BYTES) throw fail();
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'mrtr1') throw fail();
    // Canonical encoding only: a lenient decoder (Buffer's) skips characters outside the alphabet and ignores
    // the unused low bits of the last character, so many texts would decode to the signature; only the one
    // sign() writes is accepted.
    const given = canonicalBase64url(parts[2]!);
    const payloadBytes = canonicalBase64url(parts[1]!);
    if (!given || !payloadBytes) throw fail();
    if (!equalBytes(given, await this.#mac('token', parts[1]!))) throw fail();
    let payload: unknown;
    try {
      payload = JSON.parse(new TextDecoder().decode(payloadBytes));
    } catch {
      throw fail();
    }
    if (!Array.isArray(payload) || payload.length !== 5 || payload[0] !== 1) throw fail();
    const [, , expiresAt, scope, data] = payload as [number, number, number, string, unknown];
    if (typeof expiresAt !== 'number' || Math.floor(this.#now() / 1000) > expiresAt) throw fail();
    if (typeof scope !== 'string' || !equalText(scope, await this.#scope(method, params))) throw fail();
    return data;
  }
}

/**
 * The data an earlier round kept, from the retry's `requestState` (verified: -32602 for a tampered, foreign or
 * expired token), for a method that has input rounds at all; undefined when there is none, rather than a
 * promise of undefined, so the usual request (no requestState) does not wait a turn for nothing.
 */
export function verifiedState(codec: RequestStateCodec, entry: MethodEntry, method: string, params: JsonObject): Promise<unknown> | undefined {
  const token = params['requestState'];
  return entry.inputRequired && typeof token === 'string' ? codec.verify(token, method, params) : undefined;
}
