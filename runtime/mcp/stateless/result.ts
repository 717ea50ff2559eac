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

/** The enveloped copy of each reusable result, for the server options and method entry it was made for. */
const ENVELOPED = new WeakMap<object, { options: McpServerOptions; entry: MethodEntry; out: JsonObject }>();

/**
 * Adds the era's envelope: resultType, cache hints on cacheable methods, the server's identity in _meta. A
 * reusable result (jsonrpc/reusable.ts, e.g. a catalog's page of tools/list) is enveloped once per server and
 * method entry, and its envelope is reusable too: the result check and the writer then do their work once.
 */
export function withEnvelope(options: McpServerOptions, entry: MethodEntry, result: unknown): JsonObject {
  if (!isReusable(result)) return envelope(options, entry, result);
  const made = ENVELOPED.get(result);
  if (made?.options === options && made.entry === entry) return made.out;
  const out = reusable(envelope(options, entry, result));
  ENVELOPED.set(result, { options, entry, out });
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
