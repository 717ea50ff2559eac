// bench/servers/notes/notes — the types of what bench/notes (TypeScript) imports from notes.mjs.

/** The bench's note number `i`: the same for every framework. */
export declare function benchNote(i: number): {
  title: string;
  body: string;
  tags: string[];
  priority: 'low' | 'normal' | 'high';
  due: string;
};
