/**
 * @module load/depth — a bound on how deeply an input file nests, checked on its text before any parser or
 * validator walks it.
 *
 * JSON.parse is iterative, but the validators and the error locator recurse once per level, and the YAML
 * parser runs out of stack (or of memory building its message) near a few thousand levels. A file nested
 * deeper than {@link MAX_NESTING} is refused with one line naming it, the place and the limit.
 */
import { fail } from '../errors.ts';
import { lineColumn } from './json.ts';

/** The deepest nesting of arrays and objects (mappings, sequences) an input file may have. */
export const MAX_NESTING = 256;

const tooDeep = (text: string, offset: number, file: string, max: number): never =>
  fail({ file, ...lineColumn(text, offset), message: `nested deeper than ${max} levels (the limit for input files)` });

/** Refuses JSON `text` whose arrays and objects nest deeper than `max` (strings are skipped). */
export function checkJsonNesting(text: string, file: string, max: number = MAX_NESTING): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote, over escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) tooDeep(text, i, file, max);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/**
 * Refuses YAML `text` nested deeper than `max`: flow collections (`[`, `{` where a value starts, outside
 * quotes and comments) plus block levels (one per deeper indentation and per compact `- ` or `? ` entry).
 * The count is an upper bound, so a file within it is within the limit.
 */
export function checkYamlNesting(text: string, file: string, max: number = MAX_NESTING): void {
  let flow = 0;
  const indents: number[] = [];
  let lineStart = true;
  let last = ''; // the last significant character on this line ('' at its start)
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      lineStart = true;
      last = '';
      continue;
    }
    if (lineStart && flow === 0) {
      lineStart = false;
      let indent = 0;
      while (text[i + indent] === ' ') indent++;
      const at = i + indent;
      if (at >= text.length || text[at] === '\n' || text[at] === '#') {
        i = at - 1;
        continue;
      }
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      // compact nested entries on one line: `- - - x`, `? - x`
      let j = at;
      while ((text[j] === '-' || text[j] === '?') && (text[j + 1] === ' ' || text[j + 1] === '\n' || j + 1 === text.length)) {
        indents.push(j + 2);
        j += 2;
        while (text[j] === ' ') j++;
      }
      if (indents.length + flow > max) tooDeep(text, at, file, max);
      i = j - 1;
      continue;
    }
    lineStart = false;
    if (ch === ' ' || ch === '\t' || ch === '\r') continue;
    const valueStart = last === '' || ':-?,[{'.includes(last);
    const afterSpace = i === 0 || ' \t\n'.includes(text[i - 1]!);
    if (ch === '#' && afterSpace) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if ((ch === '"' || ch === "'") && valueStart) {
      for (i++; i < text.length && text[i] !== ch; i++) if (ch === '"' && text[i] === '\\') i++;
      last = ch;
    } else if ((ch === '[' || ch === '{') && (valueStart || flow > 0)) {
      if (++flow + indents.length > max) tooDeep(text, i, file, max);
      last = ch;
    } else if ((ch === ']' || ch === '}') && flow > 0) {
      flow--;
      last = ch;
    } else last = ch;
  }
}
