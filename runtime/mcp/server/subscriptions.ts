/**
 * @module mcp/server/subscriptions — change notifications. 2026-07-28: subscriptions/listen holds a stream open,
 * acknowledges the subset of the filter the server honours, then delivers list_changed / resources/updated
 * events tagged with the subscription id, until the client cancels (no response) or the server shuts down
 * (the listen result). The handshake era pushes the same events to clients whose revision advertises them
 * (../handshake/session.ts). Which events a server may send at all is the manifest's: each notification's capability
 * gate, read from the dispatch table.
 */
import type { ServerCapabilities, SubscriptionsListenRequestParams } from '@wiregen/mcp-2026-07-28';
import { idKey, type JsonObject, type RequestId } from '../../jsonrpc/message.ts';
import type { Serving } from './serving.ts';
import { methodNotFound } from './errors.ts';
import { whenAborted } from './context.ts';
import { META } from '../protocol.ts';
import { advertises, loadedRevision, type Revision } from '../revisions.ts';
import type { McpServerExtension } from './extensions.ts';
import type { Open, RequestContext } from './types.ts';

export type ListKind = 'tools' | 'prompts' | 'resources';

export const LIST_CHANGED = (kind: ListKind) => `notifications/${kind}/list_changed`;
export const RESOURCE_UPDATED = 'notifications/resources/updated';
/** The notifications a change in the server's catalog sends. */
export const CHANGE_NOTIFICATIONS: readonly string[] = [LIST_CHANGED('tools'), LIST_CHANGED('prompts'), LIST_CHANGED('resources'), RESOURCE_UPDATED];

/**
 * Whether the stateless capabilities open the gate (manifest) of any event a listen stream could deliver, or an
 * extension delivers events of its own (`listen` of mcp/extensions.ts).
 */
export function canListen(revision: Revision, caps: Open<ServerCapabilities>, extensions: readonly McpServerExtension[] = []): boolean {
  return CHANGE_NOTIFICATIONS.some((m) => advertises(revision, m, caps)) || extensions.some((e) => e.listen);
}

/** subscriptions/listen: acknowledges, then stays open until cancelled or ended by shutdown. */
export async function listen(conn: Serving, params: JsonObject, ctx: RequestContext): Promise<unknown> {
  const caps = conn.server.options.capabilities.stateless;
  const revision = loadedRevision(ctx.protocolVersion)!;
  if (!canListen(revision, caps, conn.server.extensions)) throw methodNotFound(ctx.method);
  // The revision's SubscriptionsListenRequest validated the params before the handler runs.
  const filter: SubscriptionsListenRequestParams['notifications'] = (params as Partial<SubscriptionsListenRequestParams>).notifications ?? {};
  const honored: JsonObject = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const)
    if (filter[`${kind}ListChanged`] === true && advertises(revision, LIST_CHANGED(kind), caps)) honored[`${kind}ListChanged`] = true;
  if (Array.isArray(filter.resourceSubscriptions) && advertises(revision, RESOURCE_UPDATED, caps))
    honored['resourceSubscriptions'] = filter.resourceSubscriptions;
  // Extensions read their own keys of the filter (the schema's notifications object is open).
  for (const ext of conn.server.extensions) Object.assign(honored, (await ext.listen?.(filter as JsonObject, ctx)) ?? {});
  conn.peer.notify('notifications/subscriptions/acknowledged', { notifications: honored, _meta: { [META.subscriptionId]: ctx.id } }, ctx.id);
  // Cancelled while an extension was consulted: the stream ends as it opens.
  return held(conn, ctx.id, honored, ctx);
}

/**
 * The listen result (SubscriptionsListenResult: its subscription id in `_meta`). A cancelled or closed stream's
 * answer is never sent, but it is still checked like any result: it must be a valid one, not undefined.
 */
function ended(id: RequestId): JsonObject {
  return { _meta: { [META.subscriptionId]: id } };
}

/**
 * The open stream: its entry in `conn.listens` until it ends, cancelled or closed through the request's abort
 * slot (context.ts whenAborted: an idle stream holds no AbortSignal). No closure here captures the context,
 * which the stream outlives (an idle stream is held for as long as the client listens): {@link opened}'s hold
 * the request's id only.
 */
function held(conn: Serving, id: RequestId, honored: JsonObject, ctx: RequestContext): Promise<unknown> {
  const stream = opened(conn, id, honored);
  whenAborted(ctx, stream.end);
  return stream.done;
}

function opened(conn: Serving, id: RequestId, honored: JsonObject): { done: Promise<unknown>; end: () => void } {
  const key = idKey(id);
  let end = (): void => {};
  const done = new Promise<unknown>((resolve) => {
    end = () => {
      conn.listens.delete(key);
      resolve(ended(id));
    };
  });
  conn.listens.set(key, { id, honored, end });
  return { done, end };
}

/** Delivers a list_changed event to every listen stream of the connection that asked for it. */
export function listChangedToListens(conn: Serving, kind: ListKind): void {
  const method = LIST_CHANGED(kind);
  for (const l of conn.listens.values())
    if (l.honored[`${kind}ListChanged`] === true) conn.peer.notify(method, { _meta: { [META.subscriptionId]: l.id } }, l.id);
}

/** Delivers notifications/resources/updated for `uri` to every listen stream subscribed to it (or to a prefix of it). */
export function resourceUpdatedToListens(conn: Serving, uri: string): void {
  for (const l of conn.listens.values()) {
    const uris = l.honored['resourceSubscriptions'];
    if (Array.isArray(uris) && uris.some((u) => uri === u || uri.startsWith(String(u).replace(/\/?$/, '/'))))
      conn.peer.notify(RESOURCE_UPDATED, { uri, _meta: { [META.subscriptionId]: l.id } }, l.id);
  }
}
