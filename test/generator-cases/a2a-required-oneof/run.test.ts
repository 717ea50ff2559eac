/**
 * Case a2a-required-oneof, run: the proto's REQUIRED fields are required (a required list needs an
 * element), exactly one member of the oneof is set, and ProtoJSON's snake_case spellings are accepted by the
 * validators while the type shows the camelCase names.
 */
import { describe, expect, it } from 'vitest';
import { messageFields, validators, type Note } from './expected/index.ts';

const ok = { noteId: 'n1', tags: ['a'], text: 'hello' };

describe('a2a-required-oneof: the generated package', () => {
  it('REQUIRED fields are required, and a required list must have an element', () => {
    expect(validators.Note(ok)).toBe(true);
    expect(validators.Note({ tags: ['a'], text: 'x' })).toBe(false);
    expect(validators.Note({ noteId: 'n1', tags: [], text: 'x' })).toBe(false);
  });

  it('exactly one member of the oneof: neither or both is refused, either spelling counts', () => {
    expect(validators.Note({ noteId: 'n1', tags: ['a'] })).toBe(false);
    expect(validators.Note({ ...ok, rawData: 'AAAA' })).toBe(false);
    expect(validators.Note({ noteId: 'n1', tags: ['a'], rawData: 'AAAA' })).toBe(true);
    expect(validators.Note({ noteId: 'n1', tags: ['a'], raw_data: 'AAAA' })).toBe(true);
    expect(validators.Note({ note_id: 'n1', noteId: 'n1', tags: ['a'], text: 't' })).toBe(true);
  });

  it('the type is the camelCase message; the field order is the proto numbering', () => {
    const note: Note = { noteId: 'n1', tags: ['a'], rawData: 'AAAA' };
    expect(validators.Note(note)).toBe(true);
    expect(messageFields['Note']?.map((f) => f.name)).toEqual(['noteId', 'tags', 'text', 'rawData']);
  });
});
