/**
 * @module mcp/stateless/result — the "envelope" step of a 2026-07-28 request: every result carries its
 * resultType, the server's identity in `_meta`, and cache hints where the manifest marks the method cacheable
 * (https://modelcontextprotocol.io/specification/2026-07-28).
 */
import { isObject, type JsonObject } from '../../jsonrpc/message.ts';
import type { MethodEntry } from '../../core/index.ts';
import { META } from '../protocol.ts';
import type { McpServerOptions } from '../server/types.ts';

/** Adds the era's envelope: resultType, cache hints on cacheable methods, the server's identity in _meta. */
export function withEnvelope(options: McpServerOptions, entry: MethodEntry, result: unknown): JsonObject {
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
