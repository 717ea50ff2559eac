/**
 * @module load/json — reading JSON inputs with errors that name the file, line and column.
 *
 * V8's JSON.parse messages do not always carry a position (Node 20 prints "Unexpected token"
 * without one), so on failure a small scanner walks the text to locate the first syntax error.
 */
import { readFileSync } from 'node:fs';
import { fail } from '../errors.ts';
import { checkJsonNesting } from './depth.ts';

/** Converts a character offset into a 1-based line and column. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Returns the offset and reason of the first JSON syntax error in `text` (RFC 8259 grammar). */
export function locateJsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const stop = (reason: string): never => {
    throw { offset: i, reason };
  };
  const describe = () => (i >= text.length ? 'unexpected end of input' : `unexpected ${JSON.stringify(text[i])}`);
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else stop(describe());
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) stop('control character in string');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) stop('bad \\u escape');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) stop('bad escape');
      }
      i++;
    }
    if (i >= text.length) stop('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '-' || m[0] === '') stop(describe());
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') stop(`expected a property name, ${describe()}`);
        string();
        ws();
        if (text[i] !== ':') stop(`expected ':', ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else stop(`expected ',' or '}', ${describe()}`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else stop(`expected ',' or ']', ${describe()}`);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else stop(describe());
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) stop(`unexpected ${JSON.stringify(text[i])} after the JSON value`);
    return { offset: text.length, reason: 'not valid JSON' };
  } catch (e) {
    if (e && typeof e === 'object' && 'offset' in e) return e as { offset: number; reason: string };
    throw e;
  }
}

/**
 * Parses JSON text; on a syntax error, or nesting deeper than the input limit (load/depth), throws an
 * InputError naming `file`, line and column.
 */
export function parseJson(text: string, file: string): unknown {
  checkJsonNesting(text, file);
  try {
    return JSON.parse(text);
  } catch {
    const { offset, reason } = locateJsonError(text);
    return fail({ file, ...lineColumn(text, offset), message: `not valid JSON: ${reason}` });
  }
}

/** Reads and parses a JSON file (see {@link parseJson}); an unreadable file is an InputError too. */
export function readJson(path: string, displayName: string = path): unknown {
  return parseJson(readText(path, displayName), displayName);
}

/** Reads a UTF-8 file, turning a missing or unreadable file into an InputError naming it. */
export function readText(path: string, displayName: string = path): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    return fail({ file: displayName, message: `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
  }
}
