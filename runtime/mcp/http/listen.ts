/**
 * @module mcp/http/listen — a subscriptions/listen stream ended by the server after a time
 * (`McpHttpOptions.maxListenMs`), for platforms that cut long requests (Workers, serverless functions).
 *
 * The 2026-07-28 schema's SubscriptionsListenResult is "the response to a subscriptions/listen request,
 * signalling that the subscription has ended gracefully (for example, during server shutdown) … sent only when
 * the server tears the subscription down; an abrupt transport close carries no response": the server ends the
 * stream with that result, as at shutdown, rather than being cut without one. The stream is then complete (its
 * response sent), so there is nothing to resume with `Last-Event-ID` and no `retry:` field: a client that still
 * wants notifications sends subscriptions/listen again. A change announced between the result and the new
 * stream's acknowledgement reaches no stream: a client re-lists (tools/list, prompts/list, resources/list) and
 * re-reads its subscribed resources after the new acknowledgement
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/subscriptions).
 */
import { idKey, type RequestId } from '../../jsonrpc/message.ts';
import type { McpConnection } from '../server/connection.ts';

/** Ends the listen stream `id` of `conn` with its result after `ms`; returns what cancels that (the stream closed first). */
export function endListenAfter(conn: McpConnection, id: RequestId, ms: number): () => void {
  const timer = setTimeout(() => conn.listens.get(idKey(id))?.end(), ms);
  return () => clearTimeout(timer);
}
