/**
 * @module mcp/server/elicit-answer — checks a client's answer to an input request the server sent (handshake era:
 * a request on the connection; 2026-07-28: an inputResponses entry). Every answer must match the revision's
 * result schema, except the values of a form elicitation's `content`, which are checked against the form the
 * server asked with (its `requestedSchema`).
 *
 * Why: the pinned schemas are inconsistent. A form may ask for a number field (`NumberSchema`, `type:
 * "number"`, in $def PrimitiveSchemaDefinition), but $def ElicitResult lists `content` values as string,
 * integer, boolean or string array only, so `{"score": 95.5}` (what the official SDKs send when a form asks
 * `score: {type: number, default: 95.5}`) fails the result schema. ElicitResult itself says the content
 * "contains values matching the requested schema" (https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation):
 * that is the rule kept here.
 */
import { isObject, type JsonObject } from '../../jsonrpc/message.ts';
import type { WireInputRequest } from './types.ts';

/** A compiled check of the revision's result schema (a generated validator). */
export type ResultCheck = (value: unknown) => boolean;

/** Why `value` does not match a form field (`PrimitiveSchemaDefinition`), or undefined when it does. */
function fieldProblem(field: JsonObject, value: unknown): string | undefined {
  const allowed = (field['enum'] ??
    (Array.isArray(field['oneOf']) ? field['oneOf'].map((o) => (isObject(o) ? o['const'] : undefined)) : undefined)) as unknown[] | undefined;
  switch (field['type']) {
    case 'string':
      if (typeof value !== 'string') return 'is not a string';
      return allowed && !allowed.includes(value) ? 'is not one of the options' : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'is not a number';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'is not an integer';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'is not a boolean';
    case 'array': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return 'is not an array of strings';
      const items = isObject(field['items']) ? field['items'] : {};
      const options = (items['enum'] ??
        (Array.isArray(items['anyOf']) ? items['anyOf'].map((o) => (isObject(o) ? o['const'] : undefined)) : undefined)) as unknown[] | undefined;
      return options && !value.every((v) => options.includes(v)) ? 'holds a value that is not one of the options' : undefined;
    }
    default:
      return 'is not a field of a type a form can ask for';
  }
}

/** Why a form's `content` does not match its `requestedSchema`, or undefined when it does. */
export function formContentProblem(requestedSchema: JsonObject, content: JsonObject): string | undefined {
  const fields = isObject(requestedSchema['properties']) ? requestedSchema['properties'] : {};
  for (const [name, value] of Object.entries(content)) {
    const field = fields[name];
    if (!isObject(field)) return `content/${name} is not a field of the form`;
    const problem = fieldProblem(field, value);
    if (problem) return `content/${name} ${problem}`;
  }
  const required = Array.isArray(requestedSchema['required']) ? requestedSchema['required'] : [];
  for (const name of required) if (typeof name === 'string' && !(name in content)) return `content/${name} is required by the form`;
  return undefined;
}

/**
 * Whether `answer` is a valid answer to `request`: `check` (the revision's result schema) on the whole answer,
 * or, for an accepted form elicitation, on the answer without its content and the content against the form.
 */
export function answerMatches(request: WireInputRequest, answer: unknown, check: ResultCheck | undefined): boolean {
  const form =
    request.method === 'elicitation/create' && (request.params?.['mode'] ?? 'form') === 'form' ? request.params?.['requestedSchema'] : undefined;
  if (isObject(form) && isObject(answer) && isObject(answer['content'])) {
    const { content, ...rest } = answer;
    return (!check || check(rest)) && formContentProblem(form, content as JsonObject) === undefined;
  }
  return !check || check(answer);
}
