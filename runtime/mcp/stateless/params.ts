/**
 * @module mcp/stateless/params — the "params" step of a 2026-07-28 request: its params checked against the
 * request schema of the revision it asked for (-32602 naming the first error's JSON pointer and reason).
 */
import { ErrorCode, forValidation, isObject, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { MethodEntry } from '../../core/index.ts';
import { schemaReason, type SchemaError } from '../server/errors.ts';

/** `params` when `entry`'s request schema accepts them; throws -32602 otherwise. */
export function checkParams(entry: MethodEntry, params: JsonObject): JsonObject {
  if (entry.params && !entry.params(forValidation(withoutFormContent(params)))) throw invalidParams(entry.params.errors);
  return params;
}

/**
 * `params` as the request schema checks it (2026-07-28): an elicitation answer among `inputResponses` (an
 * object with an `action`) is checked without its `content`, which server/elicit-answer.ts `answerMatches` checks
 * against the form that asked for it once the handler asks (a number field's answer fails the schema's
 * ElicitResult: see there).
 */
export function withoutFormContent(params: JsonObject): JsonObject {
  const responses = params['inputResponses'];
  if (!isObject(responses)) return params;
  let changed = false;
  const checked: JsonObject = {};
  for (const [key, answer] of Object.entries(responses)) {
    if (isObject(answer) && typeof answer['action'] === 'string' && isObject(answer['content'])) {
      const { content: _content, ...rest } = answer;
      checked[key] = rest;
      changed = true;
    } else checked[key] = answer;
  }
  return changed ? { ...params, inputResponses: checked } : params;
}

/** Params that fail the revision's schema (2026-07-28): the first error's JSON pointer and reason. */
export function invalidParams(errors: readonly SchemaError[] | null | undefined): JsonRpcError {
  // The shallowest error says what is wrong; at a union, "must match a schema in anyOf" beats a branch's detail.
  const depth = (p: string) => (p === '' ? 0 : p.split('/').length);
  const shallowest = errors?.length ? Math.min(...errors.map((x) => depth(x.instancePath))) : 0;
  const candidates = (errors ?? []).filter((x) => depth(x.instancePath) === shallowest);
  const e = candidates.find((x) => x.keyword === 'anyOf' || x.keyword === 'oneOf') ?? candidates[0];
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    e ? `Invalid params: ${e.instancePath ? `${e.instancePath} ` : ''}${schemaReason(e)}` : 'Invalid params',
  );
}
