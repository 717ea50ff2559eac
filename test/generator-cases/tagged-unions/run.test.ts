/**
 * Case tagged-unions, run: the generated package validates a union of objects tagged by `type`, the
 * accept-path set (dispatching on the tag) agrees with the all-errors set, and handlers are typed by it.
 */
import { describe, expect, it } from 'vitest';
import { lookup, validators, type ContentBlock, type ServerHandlers } from './expected/index.ts';

/** The accept-path set (it has no declarations: validators.js is its only importer). */
const fast = (await import('./expected/validators.fast.js' as string)) as Record<string, (data: unknown) => boolean>;

const blocks: unknown[] = [
  { type: 'text', text: 'hi' },
  { type: 'image', data: 'AAAA', mimeType: 'image/png' },
  { type: 'audio', data: 'AAAA' },
  { type: 'video', data: 'AAAA' },
  { type: 'image', data: 'AAAA' },
  { type: 'text' },
  { text: 'no tag' },
  'text',
  null,
];

describe('tagged-unions: the generated package', () => {
  it('accepts each branch by its tag and nothing else', () => {
    expect(blocks.map((b) => validators.ContentBlock(b))).toEqual([true, true, true, false, false, false, false, false, false]);
  });

  it('the accept-path validator, which dispatches on the tag, gives the same verdict on every block', () => {
    for (const b of blocks) expect(fast['ContentBlock']!(b), JSON.stringify(b)).toBe(validators.ContentBlock(b));
  });

  it('a rejected block leaves the all-errors report: every branch tried, the union named', () => {
    expect(validators.ContentBlock({ type: 'image', data: 'AAAA' })).toBe(false);
    const errors = validators.ContentBlock.errors ?? [];
    expect(errors.map((e) => e.keyword)).toContain('anyOf');
    expect(errors.some((e) => e.keyword === 'required' && e.params['missingProperty'] === 'mimeType')).toBe(true);
    expect(validators.ContentBlock({ type: 'text', text: 'ok' })).toBe(true);
    expect(validators.ContentBlock.errors).toBeNull();
  });

  it('the dispatch entry checks the params and the result of notes/post', () => {
    const entry = lookup('notes/post')!;
    expect(entry.params!({ content: [{ type: 'text', text: 'x' }] })).toBe(true);
    expect(entry.params!({ content: [{ type: 'sound' }] })).toBe(false);
    expect(entry.result!({ id: 'n1' })).toBe(true);
    expect(lookup('toString')).toBeUndefined();
  });

  it('a handler is typed by the union: it can switch on the tag', async () => {
    const handlers: ServerHandlers = {
      'notes/post': (params) => ({ id: params.content.map((b: ContentBlock) => (b.type === 'text' ? b.text : b.type)).join(',') }),
    };
    expect(
      await handlers['notes/post']!(
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'audio', data: '' },
          ],
        },
        undefined,
      ),
    ).toEqual({ id: 'a,audio' });
    // @ts-expect-error a result without its required id fails tsc
    const wrong: ServerHandlers = { 'notes/post': () => ({}) };
    expect(wrong).toBeDefined();
  });
});
