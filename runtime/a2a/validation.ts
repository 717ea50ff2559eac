/**
 * @module a2a/validation — params checked with the generated validators (the bundled schema plus the
 * proto's REQUIRED fields and oneofs), failures reported as the SDK does: -32602 "Validation failed" with
 * field violations (`message.parts`: "Field must contain at least one element.").
 */
import type { Validator } from '@wiregen/a2a-1.0';
import { A2aErrors, type FieldViolation } from './errors.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `/message/parts/0/text` → `message.parts[0].text`. */
function fieldPath(instancePath: string, extra?: string): string {
  const tokens = instancePath
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) tokens.push(extra);
  return tokens.reduce((path, t) => (/^\d+$/.test(t) ? `${path}[${t}]` : path ? `${path}.${t}` : t), '');
}

function violation(e: AjvError): FieldViolation | undefined {
  switch (e.keyword) {
    case 'minItems':
      return { field: fieldPath(e.instancePath), message: 'Field must contain at least one element.' };
    case 'required':
      return { field: fieldPath(e.instancePath, String(e.params['missingProperty'])), message: 'Field is required.' };
    case 'additionalProperties':
      return { field: fieldPath(e.instancePath, String(e.params['additionalProperty'])), message: 'Unknown field.' };
    case 'enum':
      return { field: fieldPath(e.instancePath), message: `Field must be one of ${(e.params['allowedValues'] as unknown[]).join(', ')}.` };
    case 'type':
      return { field: fieldPath(e.instancePath), message: `Field must be ${String(e.params['type']).split(',').join(' or ')}.` };
    case 'oneOf':
      return { field: fieldPath(e.instancePath), message: 'Exactly one of the fields of this oneof must be set.' };
    case 'anyOf':
    case 'if':
      return undefined; // the branch errors say more
    default:
      return {
        field: fieldPath(e.instancePath),
        message: e.message ? `${e.message.charAt(0).toUpperCase() + e.message.slice(1)}.` : 'Field is invalid.',
      };
  }
}

/** The violations of one failed validation, deduplicated; branch noise of unions is dropped. */
export function violations(errors: readonly AjvError[] | null | undefined): FieldViolation[] {
  const errs = errors ?? [];
  // Inside a oneOf (a proto oneof: "exactly one"), the branches' `required` errors only restate it.
  const oneOfPaths = new Set(errs.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const out: FieldViolation[] = [];
  for (const e of errs) {
    if (e.keyword === 'required' && oneOfPaths.has(e.instancePath)) continue;
    const v = violation(e);
    if (!v) continue;
    const key = `${v.field}\0${v.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out.length ? out : [{ field: '', message: 'Request is invalid.' }];
}

/** Validates `params`; throws the A2A -32602 error when they do not match the schema. */
export function checkParams(validate: Validator<unknown> | undefined, params: unknown): void {
  if (!validate || validate(params)) return;
  throw A2aErrors.invalidParams(violations(validate.errors as AjvError[] | null | undefined));
}
