/**
 * @module serve/notifications — `wiregen serve --notifications`: capabilities as a transport that can
 * deliver change notifications advertises them. The flags come from the newest stateless MCP revision's
 * manifest (its dispatch table): every notification the server sends under a flag of one of its
 * capabilities (`server.tools.listChanged`, `server.resources.subscribe`…) gets that flag true, in each
 * capability section the server already has. As the reference Golden Server does (drshade/haskell-mcp-server
 * 0.2.0.1, `handlerCapabilities` in src/MCP/Server/Handlers.hs): a handshake-era client is offered the list
 * changes its transport pushes, never `resources.subscribe` (resource subscriptions are offered to 2026-07-28
 * clients, through subscriptions/listen); a 2026-07-28 client is offered both.
 */
import { mcp, statelessRevisions } from '@wiregen/revisions';
import type { MethodEntry } from '@wiregen/core';
import type { JsonObject } from '@wiregen/runtime/jsonrpc';

/** The server capability flags the change notifications are gated on, in dispatch-table order. */
async function changeFlags(): Promise<readonly (readonly [section: string, flag: string])[]> {
  const latest = statelessRevisions[statelessRevisions.length - 1]!;
  const { methods } = await mcp[latest].load();
  const flags: [string, string][] = [];
  for (const entry of Object.values(methods) as readonly MethodEntry[]) {
    if (entry.kind !== 'notification' || entry.direction === 'client-to-server') continue;
    for (const gate of entry.capabilities) {
      const [section, flag, ...rest] = gate.path;
      if (gate.side === 'server' && section !== undefined && flag !== undefined && rest.length === 0) flags.push([section, flag]);
    }
  }
  return flags;
}

/** The flag of a resource subscription, which the handshake era is not offered. */
const SUBSCRIBE = 'subscribe';

/**
 * `caps` of `era` with its change-notification flags true in the sections it has (others are left out, as
 * before): every flag in 2026-07-28, the list-change flags only in the handshake era.
 */
export async function withNotifications(caps: JsonObject, era: 'handshake' | 'stateless'): Promise<JsonObject> {
  const out: JsonObject = { ...caps };
  for (const [section, flag] of await changeFlags())
    if (out[section] !== undefined && (era === 'stateless' || flag !== SUBSCRIBE)) out[section] = { ...(out[section] as JsonObject), [flag]: true };
  return out;
}
