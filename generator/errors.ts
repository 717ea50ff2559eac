/**
 * @module errors — the generator's error and diagnostic vocabulary (all stages).
 *
 * Every problem the user can fix is reported on one line as `<file>[:<line>:<col>][ <pointer>]: <message>`,
 * so an editor can jump to it. Exit codes: 0 ok, 1 a check found differences or invalid data, 2 bad input.
 */

/** One problem found in an input, located by file and (when known) a JSON pointer or line/column. */
export interface Diagnostic {
  /** Path of the offending file, relative to the project root when possible. */
  readonly file: string;
  /** JSON pointer (RFC 6901) into the file, e.g. `/methods/tools~1call/params`. */
  readonly pointer?: string;
  /** 1-based line and column, when the location comes from a text parser. */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export const EXIT_OK = 0;
export const EXIT_DIFFERENT = 1;
export const EXIT_BAD_INPUT = 2;

/** Renders a diagnostic as the single line the CLI prints. */
export function formatDiagnostic(d: Diagnostic): string {
  let where = d.file;
  if (d.line !== undefined) where += `:${d.line}:${d.column ?? 1}`;
  if (d.pointer !== undefined) where += ` ${d.pointer === '' ? '(root)' : d.pointer}`;
  return `${where}: ${d.message}`;
}

/** A failure the user must fix in an input; carries the diagnostics and the exit code to use. */
export class InputError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  readonly exitCode: number;

  constructor(diagnostics: readonly Diagnostic[], exitCode: number = EXIT_BAD_INPUT) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'InputError';
    this.diagnostics = diagnostics;
    this.exitCode = exitCode;
  }
}

/** Throws an {@link InputError} for a single diagnostic. */
export function fail(d: Diagnostic): never {
  throw new InputError([d]);
}

/** Escapes one JSON-pointer reference token (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Decodes one JSON-pointer reference token (RFC 6901 §4: `~1` before `~0`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds a JSON pointer from reference tokens. */
export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}
