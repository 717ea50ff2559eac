/**
 * Case a2a-cross-file-refs, run: the bundle's file references resolve inside the one generated document
 * (a nested Note is checked by SaveNoteRequest's validator), the proto enum is a type of its own, and the
 * dispatch table carries the proto's HTTP route.
 */
import { describe, expect, it } from 'vitest';
import { lookup, methods, validators, type NoteKind, type SaveNoteRequest } from './expected/index.ts';

describe('a2a-cross-file-refs: the generated package', () => {
  it('validates through the references: the note inside the request, its metadata a Struct', () => {
    expect(validators.SaveNoteRequest({ note: { noteId: 'n1', kind: 'NOTE_KIND_PLAIN', metadata: { a: 1 } } })).toBe(true);
    expect(validators.SaveNoteRequest({ note: { noteId: 7 } })).toBe(false);
    expect(validators.SaveNoteRequest.errors?.[0]?.instancePath).toBe('/note/noteId');
    expect(validators.SaveNoteRequest({ note: { metadata: 'x' } })).toBe(false);
    expect(validators.SaveNoteRequest({ note: { unknown: true } })).toBe(false);
  });

  it('the hoisted enum validates as the bundle wrote it (name, UNSPECIFIED, or number)', () => {
    for (const kind of ['NOTE_KIND_CHECKLIST', 'NOTE_KIND_UNSPECIFIED', 2]) expect(validators.NoteKind(kind), String(kind)).toBe(true);
    expect(validators.NoteKind(true)).toBe(false);
    const kind: NoteKind = 'NOTE_KIND_PLAIN';
    const request: SaveNoteRequest = { note: { kind } };
    expect(validators.SaveNoteRequest(request)).toBe(true);
  });

  it('the dispatch table holds the rpc with its route', () => {
    expect(Object.keys(methods)).toEqual(['SaveNote']);
    expect(lookup('SaveNote')!.http).toEqual([{ verb: 'POST', path: '/notes', body: '*' }]);
    expect(lookup('SaveNote')!.params).toBe(validators.SaveNoteRequest);
    expect(lookup('SaveNote')!.result).toBe(validators.Note);
  });
});
