/**
 * @module kit/signing — the deployer's signed card (A2A §8.4): the card without `signatures`, canonicalized
 * per RFC 8785 (the `canonicalize` package, by an author of the RFC), signed as a JWS with EdDSA (Ed25519,
 * RFC 8037) under a protected header `{alg, typ, kid, jku}`, and verified against the public key published
 * as a JWKS. Ed25519 signatures are deterministic, so the capture is too.
 *
 * DEMO KEY: the private key is derived from a fixed, public seed (DEMO_KEY_SEED) so every run signs the same
 * bytes. Anyone can recompute it; it proves nothing outside this kit. A real agent keeps its key secret.
 */
import canonicalize from 'canonicalize';
import { createHash, createPrivateKey, createPublicKey, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { AgentCardSignature } from '../generated/a2a-1.0/index.ts';
import type { AgentCard } from '../runtime/a2a/types.ts';

/** PUBLIC DEMO SEED: the Ed25519 private key is SHA-256 of this text. Never use this key for anything real. */
export const DEMO_KEY_SEED = 'A2A 101 kit: the deployer demo key. Public on purpose; never trust it.';

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410); the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicJwk: JsonWebKey & { kid: string; alg: 'EdDSA'; use: 'sig' };
  readonly kid: string;
}

export interface Jwks {
  readonly keys: readonly (JsonWebKey & { kid?: string })[];
}

const b64url = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');

/** A JWS part or key member that is not strict base64url (RFC 7515 §2: the url-safe alphabet, no padding). */
export class Base64urlError extends Error {
  /** What was being decoded, e.g. `signature`, `protected`, `jwk x`. */
  readonly field: string;
  constructor(field: string, reason: string) {
    super(`${field} is not base64url (RFC 7515 §2): ${reason}`);
    this.name = 'Base64urlError';
    this.field = field;
  }
}

/**
 * Decodes base64url strictly: only `A-Z a-z 0-9 - _`, no `=` padding, no length that leaves a lone character,
 * and no unused bits set (so one byte string has exactly one encoding). Buffer.from(…, 'base64url') instead
 * skips characters outside the alphabet, so a tampered signature could still decode to the original bytes.
 */
export function decodeBase64url(text: string, field: string): Buffer {
  const bad = /[^A-Za-z0-9_-]/.exec(text);
  if (bad) throw new Base64urlError(field, `${JSON.stringify(bad[0])} at offset ${bad.index}`);
  if (text.length % 4 === 1) throw new Base64urlError(field, `a length of ${text.length} is not a whole number of bytes`);
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) throw new Base64urlError(field, 'the last character has unused bits set');
  return bytes;
}

/** RFC 8785 canonical JSON. */
export function jcs(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('nothing to canonicalize');
  return text;
}

/** The demo key: Ed25519 from DEMO_KEY_SEED; its kid is the RFC 7638 thumbprint of the public JWK. */
export function demoSigningKey(seed: string = DEMO_KEY_SEED): SigningKey {
  const secret = createHash('sha256').update(seed).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, secret]), format: 'der', type: 'pkcs8' });
  const { crv, kty, x } = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = b64url(createHash('sha256').update(jcs({ crv, kty, x })).digest());
  return { privateKey, kid, publicJwk: { kty, crv, x, kid, alg: 'EdDSA', use: 'sig' } };
}

export function jwksOf(key: SigningKey): Jwks {
  return { keys: [key.publicJwk] };
}

/**
 * The bytes a signature covers: the card without `signatures`, RFC 8785. (§8.4.1 also drops fields set to
 * their proto default; the kit's cards set none, so that step changes nothing here.)
 */
export function canonicalCard(card: AgentCard): string {
  const { signatures: _signatures, ...unsigned } = card;
  return jcs(unsigned);
}

/** Every intermediate value of one signature, for 17-signed-card.txt. */
export interface SignatureSteps {
  readonly canonical: string;
  readonly header: Record<string, string>;
  readonly protected: string;
  readonly payload: string;
  readonly signature: string;
}

/** Signs `card` (any `signatures` it has are replaced) and returns the signed card and the steps. */
export function signCard(card: AgentCard, key: SigningKey, jku: string): { card: AgentCard; steps: SignatureSteps } {
  const canonical = canonicalCard(card);
  const header = { alg: 'EdDSA', typ: 'JOSE', kid: key.kid, jku };
  const protectedHeader = b64url(JSON.stringify(header));
  const payload = b64url(canonical);
  const signature = b64url(sign(null, Buffer.from(`${protectedHeader}.${payload}`), key.privateKey));
  const entry: AgentCardSignature = { protected: protectedHeader, signature };
  return { card: { ...card, signatures: [entry] }, steps: { canonical, header, protected: protectedHeader, payload, signature } };
}

export interface Verification {
  readonly ok: boolean;
  /** One line per signature tried: its kid and what was found. */
  readonly lines: readonly string[];
  /** The signatures (or JWKS keys) refused because a part was not strict base64url. */
  readonly errors: readonly Base64urlError[];
}

/** §8.4.3: valid when at least one signature verifies with a key of `jwks` (EdDSA only). */
export function verifyCard(card: AgentCard, jwks: Jwks): Verification {
  const signatures = card.signatures ?? [];
  if (signatures.length === 0) return { ok: false, lines: ['the card has no signatures'], errors: [] };
  const payload = b64url(canonicalCard(card));
  const lines: string[] = [];
  const errors: Base64urlError[] = [];
  let ok = false;
  for (const s of signatures) {
    let header: Record<string, unknown>;
    let signature: Buffer;
    let jwk: Jwks['keys'][number] | undefined;
    try {
      signature = decodeBase64url(s.signature, 'signature');
      const json = decodeBase64url(s.protected, 'protected').toString('utf8');
      try {
        header = JSON.parse(json) as Record<string, unknown>;
      } catch {
        lines.push('a signature whose protected header is not JSON: rejected');
        continue;
      }
      jwk = jwks.keys.find((k) => k.kid === header['kid']);
      if (typeof jwk?.x === 'string') decodeBase64url(jwk.x, 'jwk x');
    } catch (err) {
      if (!(err instanceof Base64urlError)) throw err;
      errors.push(err);
      lines.push(`${err.message}: rejected`);
      continue;
    }
    if (header['alg'] !== 'EdDSA' || !jwk) {
      lines.push(`kid ${String(header['kid'])}, alg ${String(header['alg'])}: no EdDSA key with that kid in the JWKS: rejected`);
      continue;
    }
    const good = verify(null, Buffer.from(`${s.protected}.${payload}`), createPublicKey({ key: jwk, format: 'jwk' }), signature);
    lines.push(
      `kid ${String(header['kid'])}, alg EdDSA: ${good ? 'the signature matches the canonical card' : 'the signature does not match the canonical card'}`,
    );
    ok ||= good;
  }
  return { ok, lines, errors };
}
