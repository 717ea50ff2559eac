/**
 * @module load/validate-input — validates the project's own input files (pins, manifests) against their
 * JSON Schemas with ajv, turning the first errors into diagnostics that name the file and location.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { InputError, type Diagnostic } from '../errors.ts';

/** Maps a JSON pointer of the document to a line/column, when the document came from a text parser. */
export type Locator = (pointer: string) => { line: number; column: number } | undefined;

/** Compiles a JSON Schema (draft 2020-12) for validating an input file. */
export function compileInputSchema(schema: object): ValidateFunction {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  return ajv.compile(schema);
}

/**
 * A one-line reason for an ajv error, naming the property where ajv puts it in params. Takes what every
 * ajv-compiled validator leaves, including a generated package's (@wiregen/core ValidationError).
 */
export function describeError(e: Pick<ErrorObject, 'keyword' | 'params' | 'message'>): string {
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown property ${JSON.stringify(e.params['additionalProperty'])}`;
    case 'required':
      return `missing required property ${JSON.stringify(e.params['missingProperty'])}`;
    case 'type':
      return `must be ${String(e.params['type']).split(',').join(' or ')}`;
    case 'enum':
      return `${e.message}: ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? e.keyword;
  }
}

/** Throws an InputError listing what `validate` found wrong with `data` (from `file`). */
export function assertValid(validate: ValidateFunction, data: unknown, file: string, locate?: Locator): void {
  if (validate(data)) return;
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if' && e.keyword !== 'oneOf');
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const e of errors.length ? errors : (validate.errors ?? [])) {
    const key = e.instancePath + describeError(e);
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push({ file, pointer: e.instancePath, ...(locate?.(e.instancePath) ?? {}), message: describeError(e) });
  }
  throw new InputError(diagnostics.slice(0, 10));
}
