/**
 * @module test/code-first/calls — how the Standard Schema tests call a code-first server in process: its
 * listings, one tool call or prompt (2026-07-28, over mcp-pair's linked transport), and an elicitation round
 * trip in each era (handshake: the client answers elicitation/create; 2026-07-28: input_required, then the
 * retry with inputResponses).
 */
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import type { McpServerBuilder } from '../../runtime/mcp/catalog/code-first.ts';
import { handshake, mcpPair, withMeta } from '../helpers/mcp-pair.ts';

/** A behaviour's thrown error is logged with its stack; the tests read it in the answer instead. */
const QUIET = { log: () => {} };

/** tools/list and prompts/list of a server (2026-07-28). */
export async function listings(builder: McpServerBuilder): Promise<{ tools: JsonObject[]; prompts: JsonObject[] }> {
  const pair = mcpPair(await builder.build(QUIET));
  const tools = (await pair.request('tools/list', withMeta())).response['result'] as { tools: JsonObject[] };
  const prompts = (await pair.request('prompts/list', withMeta())).response['result'] as { prompts?: JsonObject[] };
  await pair.close();
  return { tools: tools.tools, prompts: prompts.prompts ?? [] };
}

/** The response to one request (2026-07-28). */
export async function ask(builder: McpServerBuilder, method: string, params: JsonObject, metaExtra: JsonObject = {}): Promise<JsonObject> {
  const pair = mcpPair(await builder.build(QUIET));
  const { response } = await pair.request(method, withMeta(params, metaExtra));
  await pair.close();
  return response;
}

/** The first text of a tools/call result. */
export const textOf = (response: JsonObject): unknown => ((response['result'] as JsonObject)['content'] as JsonObject[])[0]!['text'];

/** A tool call in the handshake era (2025-11-25 unless `version`) whose elicitation/create the client answers with `answer`. */
export async function elicitHandshake(
  builder: McpServerBuilder,
  name: string,
  answer: JsonObject,
  version = '2025-11-25',
): Promise<{ sent: JsonObject; response: JsonObject }> {
  const pair = mcpPair(await builder.build(QUIET), { responder: () => answer });
  await handshake(pair, version, { elicitation: {} });
  const { response } = await pair.request('tools/call', { name, arguments: {} });
  await pair.close();
  return { sent: pair.frames.find((f) => f['method'] === 'elicitation/create')!, response };
}

/** A tool call in 2026-07-28: the input_required round, then the retry answering its requests with `answer`. */
export async function elicitStateless(
  builder: McpServerBuilder,
  name: string,
  answer: JsonObject,
): Promise<{ first: JsonObject; response: JsonObject }> {
  const caps = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const pair = mcpPair(await builder.build(QUIET));
  const first = (await pair.request('tools/call', withMeta({ name, arguments: {} }, caps))).response['result'] as JsonObject;
  const keys = Object.keys((first['inputRequests'] ?? {}) as JsonObject);
  const inputResponses = Object.fromEntries(keys.map((k) => [k, answer]));
  const retry = { name, arguments: {}, inputResponses, ...(first['requestState'] ? { requestState: first['requestState'] } : {}) };
  const { response } = await pair.request('tools/call', withMeta(retry, caps));
  await pair.close();
  return { first, response };
}
