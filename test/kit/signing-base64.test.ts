/**
 * The signed card's parts are decoded as strict base64url (RFC 7515 §2): a signature, protected header or
 * JWKS key with characters outside the url-safe alphabet, padding, a stray last character or unused bits
 * set is refused with a Base64urlError, where lenient decoding would have verified it. Cases are ours.
 */
import { describe, expect, it } from 'vitest';
import { card as deployerCard } from '../../generated/samples/deployer/index.ts';
import { Base64urlError, decodeBase64url, demoSigningKey, jwksOf, signCard, verifyCard } from '../../kit/signing.ts';
import type { AgentCard } from '../../runtime/a2a/types.ts';

const key = demoSigningKey();
const signed = signCard(deployerCard as AgentCard, key, 'http://127.0.0.1:41243/.well-known/jwks.json').card;
const sig = signed.signatures![0]!;
/** The last character with its unused low bits flipped: the same bytes under lenient decoding. */
const flipLast = (s: string) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return s.slice(0, -1) + alphabet[alphabet.indexOf(s.at(-1)!) ^ 1];
};

describe('decodeBase64url', () => {
  it('decodes what Buffer encodes', () => {
    for (const n of [0, 1, 2, 3, 31, 64]) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 5) & 255));
      expect(decodeBase64url(bytes.toString('base64url'), 'x').equals(bytes)).toBe(true);
    }
  });

  it.each([
    ['a + (standard alphabet)', 'ab+c', '"+" at offset 2'],
    ['padding', 'YQ==', '"=" at offset 2'],
    ['a space', 'YW Jj', '" " at offset 2'],
    ['a lone last character', 'YWJjZ', 'a length of 5 is not a whole number of bytes'],
    ['unused bits set', 'YR', 'the last character has unused bits set'],
  ])('refuses %s', (_, text, reason) => {
    expect(() => decodeBase64url(text, 'signature')).toThrow(new Base64urlError('signature', reason));
  });
});

describe('verifyCard with a mangled signature or key', () => {
  it('the untouched card verifies', () => {
    expect(verifyCard(signed, jwksOf(key))).toMatchObject({ ok: true, errors: [] });
  });

  it.each([
    ['a character outside the alphabet in the signature', { signature: `${sig.signature.slice(0, 10)}!${sig.signature.slice(10)}` }, 'signature'],
    ['padding on the signature', { signature: `${sig.signature}==` }, 'signature'],
    ['a stray last character on the signature', { signature: `${sig.signature}AAA` }, 'signature'],
    ['unused bits set in the signature', { signature: flipLast(sig.signature) }, 'signature'],
    ['a "." in the protected header', { protected: `${sig.protected.slice(0, 4)}.${sig.protected.slice(4)}` }, 'protected'],
  ])('%s: refused with a Base64urlError', (_, change, field) => {
    const card = { ...signed, signatures: [{ ...sig, ...change }] };
    const verdict = verifyCard(card, jwksOf(key));
    expect(verdict.ok).toBe(false);
    expect(verdict.errors).toHaveLength(1);
    expect(verdict.errors[0]).toBeInstanceOf(Base64urlError);
    expect(verdict.errors[0]!.field).toBe(field);
  });

  it('a JWKS key whose x is padded is refused', () => {
    const jwks = { keys: [{ ...key.publicJwk, x: `${key.publicJwk.x}=` }] };
    const verdict = verifyCard(signed, jwks);
    expect(verdict.ok).toBe(false);
    expect(verdict.errors.map((e) => e.field)).toEqual(['jwk x']);
  });
});
