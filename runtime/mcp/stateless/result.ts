/**
 * @module mcp/stateless/result — the "envelope" step of a 2026-07-28 request: every result carries its
 * resultType, the server's identity in `_meta`, and cache hints where the manifest marks the method cacheable
 * (https://modelcontextprotocol.io/specification/2026-07-28).
 */
import { isObject, type JsonObject } from '../../jsonrpc/message.ts';
import { isReusable, reusable } from '../../jsonrpc/reusable.ts';
import type { MethodEntry } from '../../core/index.ts';
import { META } from '../protocol.ts';
import type { McpServerOptions } from '../server/types.ts';

/**
 * The enveloped copies of each reusable result, one per server options and method entry it was answered for
 * (one, unless several servers share a catalog): none is made again when servers take turns.
 */
const ENVELOPED = new WeakMap<object, { options: McpServerOptions; entry: MethodEntry; out: JsonObject }[]>();

/**
 * Adds the era's envelope: resultType, cache hints on cacheable methods, the server's identity in _meta. A
 * reusable result (jsonrpc/reusable.ts, e.g. a catalog's page of tools/list) is enveloped once per server and
 * method entry, and its envelope is reusable too: the result check and the writer then do their work once.
 */
export function withEnvelope(options: McpServerOptions, entry: MethodEntry, result: unknown): JsonObject {
  if (!isReusable(result)) return envelope(options, entry, result);
  let made = ENVELOPED.get(result);
  if (!made) ENVELOPED.set(result, (made = []));
  const found = made.find((m) => m.options === options && m.entry === entry);
  if (found) return found.out;
  const out = reusable(envelope(options, entry, result));
  made.push({ options, entry, out });
  return out;
}

function envelope(options: McpServerOptions, entry: MethodEntry, result: unknown): JsonObject {
  const out: JsonObject = isObject(result) ? Object.assign({}, result) : {};
  if (out['resultType'] === undefined) out['resultType'] = 'complete';
  if (entry.cacheable && out['resultType'] === 'complete') {
    const cache = options.cache ?? { ttlMs: 0, cacheScope: 'private' };
    if (out['ttlMs'] === undefined) out['ttlMs'] = cache.ttlMs;
    if (out['cacheScope'] === undefined) out['cacheScope'] = cache.cacheScope;
  }
  const meta: JsonObject = isObject(out['_meta']) ? Object.assign({}, out['_meta']) : {};
  meta[META.serverInfo] = options.serverInfo;
  out['_meta'] = meta;
  return out;
}
