/**
 * The malformed-line generator of the bad-input test (malformed-lines.ts): deterministic, 1,000 lines, every
 * category the test promises, no line breaks inside a line, and never a request a server should accept.
 */
import { describe, expect, it } from 'vitest';
import { isUsableId, isWellFormedMessage, MALFORMED_KINDS, malformedLines, prng } from './malformed-lines.ts';

const lines = malformedLines();
const texts = lines.map((l) => l.text);
const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Enough of InitializeRequestParams to tell a valid initialize from a broken one. */
function isValidInitializeParams(p: Record<string, unknown>): boolean {
  const info = p['clientInfo'] as Record<string, unknown> | undefined;
  const caps = p['capabilities'];
  return (
    typeof p['protocolVersion'] === 'string' &&
    typeof caps === 'object' &&
    caps !== null &&
    !Array.isArray(caps) &&
    typeof info === 'object' &&
    info !== null &&
    typeof info['name'] === 'string' &&
    typeof info['version'] === 'string'
  );
}

describe('malformed lines', () => {
  it('are 1,000 and the same on every run; another seed gives others', () => {
    expect(lines).toHaveLength(1000);
    expect(malformedLines()).toStrictEqual(lines);
    expect(malformedLines(1000, 42).map((l) => l.text)).not.toStrictEqual(texts);
    const [a, b] = [prng(1), prng(1)];
    expect([a(), a(), a()]).toStrictEqual([b(), b(), b()]);
  });

  it('cycle through every category', () => {
    for (const kind of MALFORMED_KINDS) expect(lines.filter((l) => l.kind === kind).length, kind).toBeGreaterThanOrEqual(60);
  });

  it('never hold a line break', () => {
    expect(texts.filter((t) => /[\r\n]/.test(t))).toEqual([]);
  });

  it('hold what the test promises', () => {
    const has = (p: (t: string) => boolean) => texts.some(p);
    expect(has((t) => t === '[]')).toBe(true);
    expect(has((t) => t.startsWith('[{') || t.startsWith('[1'))).toBe(true); // non-empty batches
    expect(has((t) => t.includes('"id":1e400,'))).toBe(true);
    expect(has((t) => t.includes('"id":99999999999999999999999,'))).toBe(true);
    for (const id of ['1.5', 'true', '[1]', '{"id":1}'])
      expect(
        has((t) => t.includes(`"id":${id},`)),
        id,
      ).toBe(true);
    expect(has((t) => t.startsWith('['.repeat(10_000)))).toBe(true);
    expect(has((t) => t.startsWith('{"a":'.repeat(10_000)))).toBe(true);
    expect(has((t) => t === '')).toBe(true);
    expect(has((t) => t !== '' && t.trim() === '')).toBe(true);
    expect(has((t) => t.length >= 512 * 1024)).toBe(true);
    expect(has((t) => t.includes('\u0000'))).toBe(true);
    expect(has((t) => /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/.test(t))).toBe(true);
    for (const v of ['0', '3.14', '"initialize"', 'null', 'true']) expect(texts, v).toContain(v);
    const longIds = lines.filter((l) => typeof l.id === 'string' && Buffer.byteLength(l.id) === 300);
    expect(longIds.length).toBeGreaterThan(0);
    expect(longIds.some((l) => (l.id as string).includes('€'))).toBe(true);
  });

  it('declare the usable id of every line that has one, each id once', () => {
    const declared = lines.filter((l) => l.id !== undefined).map((l) => l.id);
    expect(declared.every(isUsableId)).toBe(true);
    expect(new Set(declared).size).toBe(declared.length);
    for (const l of lines) {
      const v = parse(l.text);
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && 'id' in v && isUsableId(v.id)) expect(l.id, l.kind).toBe(v.id);
    }
  });

  it('are never a request a server should accept', () => {
    for (const l of lines) {
      if (!isWellFormedMessage(l.text)) continue;
      // Only initialize with broken params may look like a request; its params must fail InitializeRequestParams.
      const m = JSON.parse(l.text) as { method: string; params: Record<string, unknown> };
      expect(m.method, l.kind).toBe('initialize');
      expect(isValidInitializeParams(m.params), `${l.kind}: ${l.text.slice(0, 200)}`).toBe(false);
    }
  });
});
