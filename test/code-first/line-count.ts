/**
 * @module test/code-first/line-count — how many lines an author writes: neither blank nor only a comment, the
 * way the notes server is compared with the same server written for the official SDK.
 */

/** The lines of `text` that are neither blank nor only a comment. */
export function codeLines(text: string): number {
  return text.split('\n').filter((line) => line.trim() !== '' && !/^\s*(\/\/|\/\*|\*)/.test(line)).length;
}

/** The most lines examples/notes-server may take, at the repository's formatting and at 120 columns. */
export const NOTES_BUDGET = 70;
