/**
 * @module test/fuzz/request-state — requestState tokens (runtime/mcp/stateless/mrtr.ts RequestStateCodec) tampered
 * with 1,000 ways, every one refused -32602; then properties (fast-check): what sign() writes verifies to
 * the data it carries, on the call it was issued for only, and any edit of it is refused. Among the 1,000
 * are the edits once found accepted: characters outside the base64url alphabet and other spellings of
 * the signature's last character, which Buffer.from(…, 'base64url') decodes to the same bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonRpcError } from '../../runtime/jsonrpc/message.ts';
import { canonicalBase64url, RequestStateCodec } from '../../runtime/mcp/stateless/request-state.ts';

const SECRET = Buffer.alloc(32, 7);
const codec = new RequestStateCodec(SECRET, 300, () => 1_800_000_000_000);
const PARAMS = { name: 'delete_file', arguments: { path: '/tmp/x' } };
const TOKEN = await codec.sign('tools/call', PARAMS, { step: 1, issuedBy: 'test' });
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const EXTRA = ['=', '==', '!', ' ', '\t', '~', 'é', '.', '+', '/', '%', '\n', '\u0000', 'A', '-', '_', '😀', '\r'];

/** Whether `verify` refuses `token` with -32602. */
async function refused(token: string): Promise<boolean> {
  try {
    await codec.verify(token, 'tools/call', PARAMS);
    return false;
  } catch (err) {
    return err instanceof JsonRpcError && err.code === -32602;
  }
}

/** The tampered tokens, in a fixed order, each different from TOKEN. */
function tamperings(): string[] {
  const [prefix, payload, signature] = TOKEN.split('.') as [string, string, string];
  const out = new Set<string>();
  const add = (t: string) => t !== TOKEN && out.add(t);
  const insert = (text: string, at: number, c: string) => text.slice(0, at) + c + text.slice(at);
  for (const c of EXTRA) {
    add(TOKEN + c);
    add(c + TOKEN);
    for (let at = 0; at <= signature.length; at++) add(`${prefix}.${payload}.${insert(signature, at, c)}`);
    for (let at = 0; at <= payload.length; at += Math.ceil(payload.length / 12)) add(`${prefix}.${insert(payload, at, c)}.${signature}`);
  }
  for (const c of ALPHABET) {
    add(`${prefix}.${payload}.${signature.slice(0, -1)}${c}`);
    add(`${prefix}.${payload.slice(0, -1)}${c}.${signature}`);
    add(`${prefix}.${payload}.${c}${signature.slice(1)}`);
  }
  for (let i = 0; i < signature.length; i++) {
    const c = signature[i]!;
    const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    add(`${prefix}.${payload}.${signature.slice(0, i)}${flipped}${signature.slice(i + 1)}`);
  }
  for (let cut = 1; cut <= 8; cut++) {
    add(`${prefix}.${payload}.${signature.slice(0, -cut)}`);
    add(`${prefix}.${payload.slice(0, -cut)}.${signature}`);
  }
  for (const other of ['mrtr2', 'MRTR1', 'mrtr', '', 'mrtr1 ']) add(`${other}.${payload}.${signature}`);
  add(`${prefix}.${payload}.${signature}.`);
  add(`${prefix}.${signature}.${payload}`);
  add(`${prefix}..${signature}`);
  add(`${prefix}.${payload}.`);
  add(`${prefix}.${payload}.${signature}=`);
  add(`${prefix}.${Buffer.from(payload, 'base64url').toString('base64')}.${signature}`);
  add(`${prefix}.${payload}.${Buffer.from(signature, 'base64url').toString('base64')}`);
  return [...out];
}

describe('requestState tampered with 1,000 ways', () => {
  const tampered = tamperings().slice(0, 1000);

  it('holds 1,000 distinct tokens, dozens of which Buffer decodes to the true signature and payload', () => {
    expect(tampered).toHaveLength(1000);
    // The 38 once accepted: texts that decode leniently to the very bytes of the token's parts.
    const [, payload, signature] = TOKEN.split('.') as [string, string, string];
    const sameBytes = tampered.filter((t) => {
      const parts = t.split('.');
      return (
        parts.length === 3 &&
        parts[0] === 'mrtr1' &&
        Buffer.from(parts[1]!, 'base64url').equals(Buffer.from(payload, 'base64url')) &&
        Buffer.from(parts[2]!, 'base64url').equals(Buffer.from(signature, 'base64url'))
      );
    });
    expect(sameBytes.length).toBeGreaterThan(38);
  });

  it('rejects 1,000/1,000 with -32602, and accepts the token itself', async () => {
    expect(await codec.verify(TOKEN, 'tools/call', PARAMS)).toEqual({ step: 1, issuedBy: 'test' });
    const accepted: string[] = [];
    for (const t of tampered) if (!(await refused(t))) accepted.push(t);
    expect(accepted).toEqual([]);
  });

  it('canonicalBase64url takes what Buffer writes and nothing else', () => {
    const bytes = Buffer.from([0xff, 0x00]);
    expect(bytes.toString('base64url')).toBe('_wA');
    expect(canonicalBase64url('_wA')).toEqual(new Uint8Array(bytes));
    // '_wB' decodes to the same two bytes (its last character's unused bits differ).
    expect(Buffer.from('_wB', 'base64url').equals(bytes)).toBe(true);
    for (const text of ['_wB', '_wA=', '_wA ', '', '_w A', '/wA']) expect(canonicalBase64url(text)).toBeUndefined();
  });
});

describe('requestState properties (fast-check)', () => {
  const params = fc.dictionary(
    fc.string({ maxLength: 8 }).filter((k) => !['_meta', 'inputResponses', 'requestState', '__proto__'].includes(k)),
    fc.jsonValue({ maxDepth: 3 }),
    { maxKeys: 4 },
  );

  it('verify(sign(data)) is the data, for that method and those params only', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), params, fc.string({ maxLength: 12 }), async (data, p, method) => {
        const token = await codec.sign(method, p, data);
        // What JSON can carry: -0 becomes 0 on the way.
        expect(await codec.verify(token, method, p)).toEqual(JSON.parse(JSON.stringify(data ?? null)));
        // _meta, inputResponses and requestState are outside the scope; anything else is in it.
        await expect(codec.verify(token, method, { ...p, _meta: { x: 1 }, inputResponses: {} })).resolves.not.toThrow();
        expect(await refusedFor(token, `${method}x`, p)).toBe(true);
        expect(await refusedFor(token, method, { ...p, extra: 'field' })).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('any one-character edit of a token is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(TOKEN.length), fc.string({ minLength: 1, maxLength: 2, unit: 'binary' }), fc.boolean(), async (at, text, replace) => {
        const edited = TOKEN.slice(0, at) + text + TOKEN.slice(replace ? at + 1 : at);
        fc.pre(edited !== TOKEN);
        expect(await refused(edited)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('an arbitrary string is refused, never thrown at as anything but -32602', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('mrtr1..', 'mrtr1.e30.', TOKEN.slice(0, -1))),
        async (text) => {
          fc.pre(text !== TOKEN);
          expect(await refused(text)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

async function refusedFor(token: string, method: string, params: Record<string, unknown>): Promise<boolean> {
  try {
    await codec.verify(token, method, params);
    return false;
  } catch (err) {
    return err instanceof JsonRpcError && err.code === -32602;
  }
}
