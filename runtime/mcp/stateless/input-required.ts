/**
 * @module mcp/stateless/input-required — the "input-required" step of a 2026-07-28 request
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr): a round that ends asking
 * the client for input is answered with an input_required result, once the method is found to allow one, the
 * client to be able to answer every request it carries (its declared capabilities, else -32021), and the
 * state the handler kept signed into its requestState. The capability check is the handshake era's too
 * (handshake/session.ts), before it sends its requests to the client.
 */
import type { ClientCapabilities } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, isObject, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { MethodEntry } from '../../core/index.ts';
import { MCP_ERRORS } from '../protocol.ts';
import { gateOpen, type Revision } from '../revisions.ts';
import type { WireInputRequest } from '../server/types.ts';

/** MissingRequiredClientCapabilityError (-32021): the client capabilities a request needs that the client did not declare. */
export const missingClientCapability = (requiredCapabilities: ClientCapabilities) =>
  new JsonRpcError(MCP_ERRORS.missingClientCapability, 'Missing required client capability', { requiredCapabilities });

/** Deep-merges capability objects (`{sampling: {}}` + `{sampling: {tools: {}}}`). */
function merge(into: JsonObject, add: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(add)) into[k] = isObject(into[k]) && isObject(v) ? merge({ ...(into[k] as JsonObject) }, v) : v;
  return into;
}

function nest(path: readonly string[]): JsonObject {
  return path.reduceRight<JsonObject>((inner, key) => ({ [key]: inner }), {});
}

/**
 * The client capabilities one input request needs that `caps` lacks: the gate the manifest gives its method,
 * refined by the request's shape (elicitation mode, sampling tools and context; the specification's multi round-trip requests).
 */
export function missingCapabilities(request: WireInputRequest, caps: JsonObject, revision: Revision): JsonObject[] {
  const params = request.params ?? {};
  const needs: string[][] = (revision.lookup(request.method)?.capabilities ?? []).filter((g) => g.side === 'client').map((g) => [...g.path]);
  if (request.method === 'elicitation/create') {
    const elicitation = caps['elicitation'];
    if (params['mode'] === 'url') needs.push(['elicitation', 'url']);
    // Form mode: an empty `elicitation` object counts as form support.
    else if (isObject(elicitation) && Object.keys(elicitation).length > 0) needs.push(['elicitation', 'form']);
  }
  if (request.method === 'sampling/createMessage') {
    if (params['tools'] !== undefined || params['toolChoice'] !== undefined) needs.push(['sampling', 'tools']);
    if (params['includeContext'] !== undefined && params['includeContext'] !== 'none') needs.push(['sampling', 'context']);
  }
  return needs.filter((path) => !gateOpen(caps, path)).map(nest);
}

/** Throws -32021 naming every capability the client lacks for `requests` (merged), if any. */
export function checkClientCapabilities(requests: Readonly<Record<string, WireInputRequest>>, caps: JsonObject, revision: Revision): void {
  const missing = Object.values(requests).flatMap((r) => missingCapabilities(r, caps, revision));
  if (missing.length) throw missingClientCapability(missing.reduce(merge, {}));
}

/** Whether a handler's value ends its round asking for input (runHandler makes one of InputRequired). */
export function isInputRequired(value: unknown): value is JsonObject {
  return isObject(value) && value['resultType'] === 'input_required';
}

/**
 * The input_required result `value` asks for: -32603 when `entry`'s method has no input rounds; -32021 when
 * the client (`clientCapabilities`) cannot answer one of its requests; with `requestState` (the handler's kept
 * state, signed, when it kept any); -32603 when it carries neither requests nor state.
 */
export function askingResult(
  value: JsonObject,
  entry: MethodEntry,
  clientCapabilities: JsonObject,
  revision: Revision,
  requestState: string | undefined,
): JsonObject {
  if (!entry.inputRequired) throw new JsonRpcError(ErrorCode.InternalError, 'Input-required result is not permitted for this operation');
  const asking: JsonObject = { ...value };
  if (isObject(asking['inputRequests']))
    checkClientCapabilities(asking['inputRequests'] as Record<string, WireInputRequest>, clientCapabilities, revision);
  if (requestState !== undefined) asking['requestState'] = requestState;
  if (asking['inputRequests'] === undefined && asking['requestState'] === undefined)
    throw new JsonRpcError(ErrorCode.InternalError, 'Invalid input-required result');
  return asking;
}
