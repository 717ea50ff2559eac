/**
 * @module mcp/stateless/handler — the "handler" step of a 2026-07-28 request: who answers its method. The
 * runtime itself for the era's protocol methods (server/discover, subscriptions/listen), else the extension
 * that serves it, else the server's handler; -32601 when none does.
 */
import type { JsonObject } from '../../jsonrpc/message.ts';
import { advertisedVersions } from '../revisions.ts';
import { methodNotFound } from '../server/errors.ts';
import type { ExtensionMethod } from '../server/extensions.ts';
import type { Serving } from '../server/serving.ts';
import { listen } from '../server/subscriptions.ts';
import type { Handler } from '../server/types.ts';

/** Protocol methods the runtime answers itself in this era. */
const BUILTIN: Record<string, (conn: Serving) => Handler> = {
  'server/discover': (conn) => () => {
    const { options } = conn.server;
    const result: JsonObject = {
      supportedVersions: [...advertisedVersions(options.supportedVersions)],
      capabilities: options.capabilities.stateless,
    };
    if (options.instructions !== undefined) result['instructions'] = options.instructions;
    return result;
  },
  'subscriptions/listen': (conn) => (params, ctx) => listen(conn, params, ctx),
};

/** The handler of `method`: the runtime's, `extension`'s (the extension serving it, if any) or the server's. */
export function handlerOf(conn: Serving, method: string, extension: ExtensionMethod | undefined): Handler {
  const handler = BUILTIN[method]?.(conn) ?? extension?.handler ?? conn.server.handlers.get(method);
  if (!handler) throw methodNotFound(method);
  return handler;
}
