/**
 * @module mcp/server/errors — the MCP errors the runtime sends, with the codes and messages the references give.
 */
import type { ClientCapabilities } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, JsonRpcError } from '../../jsonrpc/message.ts';
import { MCP_ERRORS } from '../protocol.ts';

/** -32601 as the SDK sends it (the SDK's recorded raw_errors session): the method name as data. */
export const methodNotFound = (method: string) => new JsonRpcError(ErrorCode.MethodNotFound, 'Method not found', method);

/**
 * -32601 for a method of another revision than the one in use, worded as the reference Golden Server words
 * it (`methodNotFound: 'revision'`): `Method not found: initialize (not part of protocol revision 2026-07-28)`,
 * no data (test/golden/reference/modern/initialize.response.json). A method no revision has keeps
 * {@link methodNotFound}.
 */
export const methodNotInRevision = (method: string, revision: string) =>
  new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (not part of protocol revision ${revision})`);

/** The SDK's answer to a handshake-era request it cannot accept (the SDK's recorded raw_handshake session: before initialize). */
export const invalidRequestParameters = () => new JsonRpcError(ErrorCode.InvalidParams, 'Invalid request parameters', '');

/** A 2026-07-28 request on a handshake connection (the SDK's recorded raw_handshake session). */
export const statelessOnHandshake = () =>
  new JsonRpcError(
    ErrorCode.InvalidRequest,
    'this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it',
  );

/** initialize on a connection already past it. */
export const alreadyInitialized = () => new JsonRpcError(ErrorCode.InvalidRequest, 'Invalid Request: the connection is already initialized');

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

/** -32602 with a message of its own (not built from schema errors). */
export const paramsError = (message: string, data?: unknown) => new JsonRpcError(ErrorCode.InvalidParams, message, data);

export const internalError = () => new JsonRpcError(ErrorCode.InternalError, 'Internal error');

/**
 * HeaderMismatchError (-32020): the MCP-Protocol-Version header and the `_meta` version differ
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports).
 */
export const headerMismatch = (header: string, body: string) =>
  new JsonRpcError(MCP_ERRORS.headerMismatch, 'Protocol header does not match request metadata', { header, body });

/** UnsupportedProtocolVersionError (-32022): a 2026-07-28 request for a version this server does not speak, with the ones it does. */
export const unsupportedVersion = (requested: string, supported: Iterable<string>) =>
  new JsonRpcError(MCP_ERRORS.unsupportedVersion, 'Unsupported protocol version', { supported: [...supported], requested });

/** MissingRequiredClientCapabilityError (-32021): the client capabilities a request needs that the client did not declare. */
export const missingClientCapability = (requiredCapabilities: ClientCapabilities) =>
  new JsonRpcError(MCP_ERRORS.missingClientCapability, 'Missing required client capability', { requiredCapabilities });

/**
 * How an error a behaviour throws reaches the client (McpServerOptions.thrownErrors): `show` (default), its
 * message, as the TypeScript SDK v2 sends it; `mask`, a fixed text, as the Python SDK (mcp 2.3.0) of the
 * recordings sends it, except a {@link PublicError}'s. A JsonRpcError is always sent as it is.
 */
export type ThrownErrors = 'show' | 'mask';

/**
 * An error whose message is meant for the client: sent even with `thrownErrors: 'mask'` (as the Python SDK
 * sends a ToolError's). Throw it for what the model or user should read ("no note with id 7").
 */
export class PublicError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PublicError';
  }
}

/** The text of a thrown value: an Error's message (its name when the message is empty), anything else as a string. */
function thrownText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** What a thrown error may say to the client under `policy`, or undefined when it is masked. */
const shown = (err: unknown, policy: ThrownErrors | undefined): string | undefined =>
  policy !== 'mask' || err instanceof PublicError ? thrownText(err) : undefined;

/**
 * A tool's thrown error as a tool execution error: an `isError` result the model reads ($def CallToolResult,
 * isError: "Any errors that originate from the tool SHOULD be reported inside the result object … Otherwise,
 * the LLM would not be able to see that an error occurred and self-correct"). Its text: the message (the
 * TypeScript SDK v2's McpServer puts the thrown message in the text block), or, masked, the Python SDK's
 * `Error executing tool <name>` (test/fixtures/recordings/, session legacy_errors).
 */
export function thrownToolResult(
  err: unknown,
  tool: string,
  policy: ThrownErrors | undefined,
): { content: [{ type: 'text'; text: string }]; isError: true } {
  return { content: [{ type: 'text', text: shown(err, policy) ?? `Error executing tool ${tool}` }], isError: true };
}

/**
 * Any other method's thrown error as a JSON-RPC error: -32603 with the thrown message (the TypeScript SDK v2
 * answers a throwing resources/read or prompts/get callback so), or, masked, -32603 "Internal error".
 */
export const thrownRequestError = (err: unknown, policy: ThrownErrors | undefined): JsonRpcError =>
  new JsonRpcError(ErrorCode.InternalError, shown(err, policy) ?? 'Internal error');

/** The log line of a thrown error: the method, what it was called for (a name or uri), and the stack. */
export function thrownLogLine(method: string, params: Readonly<Record<string, unknown>>, err: unknown): string {
  const subject = typeof params['name'] === 'string' ? params['name'] : typeof params['uri'] === 'string' ? params['uri'] : undefined;
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  return `request ${method}${subject === undefined ? '' : ` ${subject}`} failed: ${detail}`;
}
