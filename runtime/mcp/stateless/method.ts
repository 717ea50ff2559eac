/**
 * @module mcp/stateless/method — the "method" and "capabilities" steps of a 2026-07-28 request: a method this
 * era serves (an extension's, or a client request of the newest revision), whose server capability gates
 * (from the manifest) the server advertises; -32601 otherwise, worded as McpServerOptions.methodNotFound says
 * for a method another revision has.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { MethodEntry } from '../../core/index.ts';
import { gatesOpen, inSomeRevision, LATEST_STATELESS } from '../revisions.ts';
import { methodNotFound } from '../server/errors.ts';
import type { ExtensionMethod, McpServerExtension } from '../server/extensions.ts';
import type { McpServer } from '../server/server.ts';

/**
 * -32601 for a method of another revision than the one in use, worded as the reference Golden Server words
 * it (`methodNotFound: 'revision'`): `Method not found: initialize (not part of protocol revision 2026-07-28)`,
 * no data (test/golden/reference/modern/initialize.response.json). A method no revision has keeps
 * {@link methodNotFound}.
 */
export const methodNotInRevision = (method: string, revision: string) =>
  new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (not part of protocol revision ${revision})`);

/** The method an extension among `extensions` serves (its entry from the extension's pinned schema), or undefined. */
export function extensionMethod(extensions: readonly McpServerExtension[], method: string): ExtensionMethod | undefined {
  for (const ext of extensions) {
    const found = ext.methods?.[method];
    if (found) return found;
  }
  return undefined;
}

/**
 * Throws -32601 unless `entry` (what the newest revision's dispatch table, or an extension, says of `method`)
 * is a request the client may send that is not carried inside another's result.
 */
export function requireServed(server: McpServer, method: string, entry: MethodEntry | undefined): asserts entry is MethodEntry {
  if (entry?.kind === 'request' && entry.direction !== 'server-to-client' && !entry.embedded) return;
  const elsewhere = entry === undefined && server.options.methodNotFound === 'revision' && inSomeRevision(method);
  throw elsewhere ? methodNotInRevision(method, LATEST_STATELESS) : methodNotFound(method);
}

/** Throws -32601 unless the entry's server-side capability gates are all advertised in `caps`. */
export function requireCapabilities(entry: MethodEntry, caps: JsonObject): void {
  if (!gatesOpen(entry, 'server', caps)) throw methodNotFound(entry.method);
}
