/**
 * @module load/proto-lex — the proto3 tokenizer: tokens with line and column, and each token's leading
 * comment, attached as protoc attaches it.
 *
 * protoc's rule (descriptor.proto, `SourceCodeInfo.Location.leading_comments`, and its tokenizer): a comment
 * block on the lines directly before a declaration, with no blank line between, is that declaration's leading
 * comment; a comment on the same line as the previous token is that token's trailing comment; a blank line,
 * a change between `//` and `/* *\/` comments, or a closing bracket ends a block. Line comments keep what
 * follows the `//` up to and including the newline (`// a\n// b\n` is `" a\n b\n"`), as protoc's are.
 */
import { fail } from '../errors.ts';

export interface Token {
  readonly kind: 'ident' | 'string' | 'number' | 'punct';
  readonly text: string;
  readonly line: number;
  readonly column: number;
  /** The comment block directly before the token, as protoc's `leading_comments` (see the module doc). */
  readonly leading?: string;
}

export interface LexOptions {
  /**
   * Comment-only lines to treat as absent (neither part of a comment block nor a break in one). A2A's
   * build deletes lines holding `// --8<--` or `// protolint:` before protoc reads the proto
   * (scripts/proto_to_json_schema.sh in https://github.com/a2aproject/A2A). Default: none.
   */
  readonly dropCommentLines?: RegExp;
}

const CLOSERS: ReadonlySet<string> = new Set(['}', ']', ')']);

export function tokenize(text: string, file: string, options: LexOptions = {}): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  // The comment block being collected for the next token.
  let buffer = '';
  let has = false;
  let isLine = false;
  const flush = () => {
    buffer = '';
    has = false;
  };
  const newline = () => {
    line++;
    lineStart = ++i;
  };
  const spaces = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  };
  /** Consumes `// …` through its newline; returns the text after the slashes, newline included. */
  const lineComment = (): string => {
    const end = text.indexOf('\n', i);
    const stop = end < 0 ? text.length : end;
    const body = text.slice(i + 2, stop) + (end < 0 ? '' : '\n');
    i = stop;
    if (end >= 0) newline();
    return body;
  };
  const blockComment = (): string => {
    const end = text.indexOf('*/', i + 2);
    if (end < 0) fail({ file, line, column: i - lineStart + 1, message: 'unterminated comment' });
    const body = text.slice(i + 2, end);
    for (let k = i; k < end; k++) if (text[k] === '\n') (line++, (lineStart = k + 1));
    i = end + 2;
    return body;
  };

  let first = true;
  while (i < text.length) {
    // After the previous token: what follows on its own line is its trailing comment, never a leading one.
    if (!first) {
      spaces();
      if (text.startsWith('//', i)) lineComment();
      else if (text.startsWith('/*', i)) {
        blockComment();
        spaces();
        if (text[i] === '\n') newline();
      } else if (text[i] === '\n') newline();
    }
    first = false;
    flush();
    // The lines before the next token.
    for (;;) {
      spaces();
      if (i >= text.length) break;
      if (text.startsWith('//', i)) {
        const onlyThing = text.slice(lineStart, i).trim() === '';
        const end = text.indexOf('\n', i);
        const body = text.slice(i, end < 0 ? text.length : end);
        if (onlyThing && options.dropCommentLines?.test(body)) {
          lineComment();
          continue;
        }
        if (has && !isLine) flush();
        buffer += lineComment();
        has = true;
        isLine = true;
        continue;
      }
      if (text.startsWith('/*', i)) {
        if (has) flush();
        buffer += blockComment();
        has = true;
        isLine = false;
        continue;
      }
      if (text[i] === '\n') {
        newline();
        flush(); // a blank line ends the block
        continue;
      }
      break;
    }
    if (i >= text.length) break;
    const token = readToken(text, i, line, i - lineStart + 1, file);
    const leading = has && !CLOSERS.has(token.text) ? buffer : undefined;
    tokens.push(leading === undefined ? token : { ...token, leading });
    i += token.length;
    flush();
  }
  return tokens;
}

function readToken(text: string, i: number, line: number, column: number, file: string): Token & { length: number } {
  const c = text[i]!;
  const ident = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i, i + 200));
  if (ident) return { kind: 'ident', text: ident[0], line, column, length: ident[0].length };
  const num = /^-?(0x[0-9a-fA-F]+|\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 60));
  if (num) return { kind: 'number', text: num[0], line, column, length: num[0].length };
  if (c === '"' || c === "'") {
    let j = i + 1;
    let value = '';
    while (j < text.length && text[j] !== c) {
      if (text[j] === '\n') fail({ file, line, column, message: 'unterminated string' });
      if (text[j] === '\\') {
        j++;
        value += ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[text[j]!] ?? text[j];
      } else value += text[j];
      j++;
    }
    return { kind: 'string', text: value, line, column, length: j + 1 - i };
  }
  if ('{}()[]<>;=,:'.includes(c)) return { kind: 'punct', text: c, line, column, length: 1 };
  return fail({ file, line, column, message: `unexpected character ${JSON.stringify(c)}` });
}
