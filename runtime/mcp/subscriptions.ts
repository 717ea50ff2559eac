/**
 * @module mcp/subscriptions — change notifications. 2026-07-28: subscriptions/listen holds a stream open,
 * acknowledges the subset of the filter the server honours, then delivers list_changed / resources/updated
 * events tagged with the subscription id, until the client cancels (no response) or the server shuts down
 * (the listen result). Handshake era: the same events pushed to clients whose revision advertises them.
 */
import { idKey, type JsonObject } from '../jsonrpc/message.ts';
import type { McpConnection } from './connection.ts';
import { methodNotFound } from './errors.ts';
import { META } from './meta.ts';
import { advertises, loadedRevision, type Revision } from './revisions.ts';
import type { RequestContext } from './types.ts';

export type ListKind = 'tools' | 'prompts' | 'resources';

const LIST_CHANGED = (kind: ListKind) => `notifications/${kind}/list_changed`;
const RESOURCE_UPDATED = 'notifications/resources/updated';
/** The notifications a change in the server's catalogue sends. */
export const CHANGE_NOTIFICATIONS: readonly string[] = [LIST_CHANGED('tools'), LIST_CHANGED('prompts'), LIST_CHANGED('resources'), RESOURCE_UPDATED];

/** Whether the stateless capabilities open the gate (manifest) of any event a listen stream could deliver. */
export function canListen(revision: Revision, caps: JsonObject): boolean {
  return CHANGE_NOTIFICATIONS.some((m) => advertises(revision, m, caps));
}

/** subscriptions/listen: acknowledges, then stays open until cancelled or ended by shutdown. */
export function listen(conn: McpConnection, params: JsonObject, ctx: RequestContext): Promise<unknown> {
  const caps = conn.server.options.capabilities.stateless;
  const revision = loadedRevision(ctx.protocolVersion)!;
  if (!canListen(revision, caps)) throw methodNotFound(ctx.method);
  const filter = (params['notifications'] ?? {}) as JsonObject;
  const honored: JsonObject = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const)
    if (filter[`${kind}ListChanged`] === true && advertises(revision, LIST_CHANGED(kind), caps)) honored[`${kind}ListChanged`] = true;
  if (Array.isArray(filter['resourceSubscriptions']) && advertises(revision, RESOURCE_UPDATED, caps))
    honored['resourceSubscriptions'] = filter['resourceSubscriptions'];
  conn.peer.notify('notifications/subscriptions/acknowledged', { notifications: honored, _meta: { [META.subscriptionId]: ctx.id } }, ctx.id);
  const key = idKey(ctx.id);
  return new Promise((resolve) => {
    const done = (value: unknown) => {
      conn.listens.delete(key);
      resolve(value);
    };
    conn.listens.set(key, { id: ctx.id, honored, end: () => done({ _meta: { [META.subscriptionId]: ctx.id } }) });
    ctx.signal.addEventListener('abort', () => done(undefined), { once: true });
  });
}

/** Delivers a list_changed event to every connection that asked for it. */
export function deliverListChanged(conn: McpConnection, kind: ListKind): void {
  const method = LIST_CHANGED(kind);
  if (conn.era === 'handshake') {
    if (conn.handshake && advertises(conn.handshake.revision, method, conn.server.options.capabilities.handshake)) conn.peer.notify(method);
    return;
  }
  for (const l of conn.listens.values())
    if (l.honored[`${kind}ListChanged`] === true) conn.peer.notify(method, { _meta: { [META.subscriptionId]: l.id } }, l.id);
}

/** Delivers notifications/resources/updated for `uri` to every subscriber of it. */
export function deliverResourceUpdated(conn: McpConnection, uri: string): void {
  const method = RESOURCE_UPDATED;
  if (conn.era === 'handshake') {
    if (conn.handshake?.subscriptions.has(uri)) conn.peer.notify(method, { uri });
    return;
  }
  for (const l of conn.listens.values()) {
    const uris = l.honored['resourceSubscriptions'];
    if (Array.isArray(uris) && uris.some((u) => uri === u || uri.startsWith(String(u).replace(/\/?$/, '/'))))
      conn.peer.notify(method, { uri, _meta: { [META.subscriptionId]: l.id } }, l.id);
  }
}
