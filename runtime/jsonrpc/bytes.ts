/**
 * @module jsonrpc/bytes — UTF-8 lengths, base64 and base64url, and a constant-time comparison with Web APIs only
 * (TextEncoder, btoa, atob), not Node's Buffer: the fetch path runs where Buffer is missing (a Cloudflare Worker
 * without `nodejs_compat`, a browser). The decoders take the canonical encoding only (the one the encoder
 * writes): Buffer's decoders skip characters outside the alphabet and ignore unused low bits, so many texts
 * decode to the same bytes, which a signature or a cursor must not allow.
 */

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The number of UTF-8 bytes of `text`, without encoding it (a lone surrogate counts 3, as its U+FFFD). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function binary(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}

/** Standard base64 with padding (RFC 4648 §4). */
export const toBase64 = (data: Uint8Array | string): string => btoa(binary(typeof data === 'string' ? utf8(data) : data));

/** base64url without padding (RFC 4648 §5). */
export const toBase64url = (data: Uint8Array | string): string => toBase64(data).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

function fromBinary(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The bytes of canonical padded base64 `text` (decode then encode gives it back); else undefined. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bytes = fromBinary(text);
  return toBase64(bytes) === text ? bytes : undefined;
}

/** The bytes of canonical unpadded base64url `text` (decode then encode gives it back); else undefined. */
export function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const bytes = fromBinary(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return toBase64url(bytes) === text ? bytes : undefined;
}

/** Whether `a` and `b` hold the same bytes, in time that depends on their length only. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
