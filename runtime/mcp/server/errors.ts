/**
 * @module mcp/server/errors — the errors every part of a server sends (-32601, -32602, -32603), with the codes
 * and messages the references give, and how a failed schema check is described. An error only one check
 * raises is written beside that check (the handshake era's in handshake/errors.ts; 2026-07-28's in the step
 * of stateless/request.ts that raises it).
 */
import { ErrorCode, JsonRpcError } from '../../jsonrpc/message.ts';

/** -32601 as the SDK sends it (the SDK's recorded raw_errors session): the method name as data. */
export const methodNotFound = (method: string) => new JsonRpcError(ErrorCode.MethodNotFound, 'Method not found', method);

/** An ajv error as the runtime reads it: where (a JSON pointer into the data), which keyword, its params, ajv's reason. */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword?: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** How many of an enum's values a message lists before it says how many more there are. */
const LISTED_VALUES = 20;
/** How many errors one message lists (every error ajv found, with allErrors, up to this). */
const LISTED_ERRORS = 10;

const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

/**
 * ajv's reason, completed with what was allowed where ajv leaves it out: an enum's values, the constant, the
 * property that is not allowed. Every other reason already names its limit, format, pattern or type.
 */
export function schemaReason(e: SchemaError): string {
  const message = e.message ?? 'is invalid';
  const p = e.params ?? {};
  switch (e.keyword) {
    case 'enum': {
      const allowed = p['allowedValues'];
      if (!Array.isArray(allowed)) return message;
      const more = allowed.length > LISTED_VALUES ? `, … (${allowed.length - LISTED_VALUES} more)` : '';
      return `${message}: ${allowed.slice(0, LISTED_VALUES).map(json).join(', ')}${more}`;
    }
    case 'const':
      return 'allowedValue' in p ? `${message} ${json(p['allowedValue'])}` : message;
    case 'additionalProperties':
      return 'additionalProperty' in p ? `${message}: ${json(p['additionalProperty'])}` : message;
    case 'unevaluatedProperties':
      return 'unevaluatedProperty' in p ? `${message}: ${json(p['unevaluatedProperty'])}` : message;
    default:
      return message;
  }
}

/** One error as `<JSON pointer> <reason>` (`(root)` for the whole value). */
export const describeSchemaError = (e: SchemaError): string => `${e.instancePath || '(root)'} ${schemaReason(e)}`;

/**
 * Every error of a failed check, each `<JSON pointer> <reason>`, joined by "; " (at most {@link LISTED_ERRORS}):
 * with allErrors the first error alone can mislead (one branch of an anyOf). An `if` error only restates the
 * `then`/`else` branch's, which is listed, so it is left out.
 */
export function describeSchemaErrors(errors: readonly SchemaError[] | null | undefined): string {
  const all = errors ?? [];
  const kept = all.filter((e) => e.keyword !== 'if');
  const lines = [...new Set((kept.length ? kept : all).map(describeSchemaError))];
  if (!lines.length) return '(root) is invalid';
  const more = lines.length > LISTED_ERRORS ? `; … (${lines.length - LISTED_ERRORS} more)` : '';
  return lines.slice(0, LISTED_ERRORS).join('; ') + more;
}

/** -32602 with a message of its own (not built from schema errors). */
export const paramsError = (message: string, data?: unknown) => new JsonRpcError(ErrorCode.InvalidParams, message, data);

export const internalError = () => new JsonRpcError(ErrorCode.InternalError, 'Internal error');
