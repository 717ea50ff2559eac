/**
 * @module mcp/server/thrown — what a handler's throw becomes, in either era (McpHandlers says the rule): a
 * JsonRpcError is answered as it is; InputRequired ends the 2026-07-28 round; anything else is a behaviour's
 * failure, logged once with its stack, then answered by `thrownErrors`: an `isError` result for tools/call,
 * -32603 for any other method.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import { InputRequired } from '../stateless/mrtr.ts';
import type { RequestContext } from './types.ts';

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

/**
 * Whether a handler's thrown `err` is a behaviour's failure, which `thrownErrors` answers: not a JsonRpcError
 * (a protocol answer, sent as it is), not InputRequired (the input_required round), and not thrown after the
 * request was cancelled or timed out (never answered).
 */
export function isBehaviourFailure(err: unknown, ctx: Pick<RequestContext, 'signal'>): boolean {
  return !(err instanceof JsonRpcError || err instanceof InputRequired || ctx.signal.aborted);
}

/** What answering a thrown error needs of the server: its log and its `thrownErrors` option. */
export interface ThrownPolicy {
  log(line: string): void;
  readonly options: { readonly thrownErrors?: ThrownErrors | undefined };
}

/**
 * The answer to a handler's thrown error that is a behaviour's failure ({@link isBehaviourFailure}), by
 * `thrownErrors`: logged once with its stack; for tools/call, the isError result returned; for any other
 * method, the -32603 JsonRpcError thrown.
 */
export function answerThrown(server: ThrownPolicy, method: string, params: JsonObject, err: unknown): JsonObject {
  server.log(thrownLogLine(method, params, err));
  if (method === 'tools/call') return thrownToolResult(err, String(params['name']), server.options.thrownErrors);
  throw thrownRequestError(err, server.options.thrownErrors);
}
