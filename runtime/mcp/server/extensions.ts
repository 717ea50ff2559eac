/**
 * @module mcp/server/extensions — what an MCP extension (https://modelcontextprotocol.io/seps/2133-extensions) adds to
 * a server, so the extensions live in areas of their own (`@wiregen/runtime/mcp/ext/tasks`, `…/ext/skills`)
 * and a server that does not use one never loads it. An extension is advertised under
 * `capabilities.extensions[<id>]` in server/discover (2026-07-28), may serve methods of its own (their
 * dispatch-table entries come from its pinned schema, e.g. `@wiregen/mcp-ext-tasks`), may add result shapes a
 * method can answer with (the tasks extension's `resultType: "task"`), may wrap the server's handlers, and may
 * honour part of a `subscriptions/listen` filter.
 */
import type { JSONObject } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { Check, MethodEntry } from '../../core/index.ts';
import type { Handler, RequestContext } from './types.ts';

/** A method an extension serves: its dispatch-table entry (params and result validators, Mcp-Name) and handler. */
export interface ExtensionMethod {
  readonly entry: MethodEntry;
  readonly handler: Handler;
}

/** What a server needs of the connections it serves, for an extension that notifies listen streams. */
export interface ListenTarget {
  /** Sends `method` with `params` on every open listen stream whose honoured filter `wants` (its `_meta` tagged). */
  notifyListeners(wants: (honored: JsonObject) => boolean, method: string, params: JsonObject): void;
  /** The server's log (McpServerOptions.log). */
  log(line: string): void;
}

export interface McpServerExtension {
  /** The extension identifier, advertised under `capabilities.extensions` (e.g. `io.modelcontextprotocol/tasks`). */
  readonly id: string;
  /** Its settings object in the capabilities. Default `{}` ("an empty object indicates support"). */
  readonly settings?: JSONObject;
  /** Methods of the extension, served in the 2026-07-28 era (its requests carry the `_meta` envelope). */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>;
  /** Result shapes it adds, by `resultType`: which methods may answer with one, and the schema check of it. */
  readonly results?: Readonly<Record<string, { readonly methods: readonly string[]; readonly check: Check }>>;
  /** Handlers for methods the server has none for (the skills extension's resources/read and resources/list). */
  readonly handlers?: Readonly<Record<string, Handler>>;
  /** Wraps the server's handler of `method` (called once per method the server has a handler for). */
  wrap?(method: string, handler: Handler): Handler;
  /**
   * subscriptions/listen: the part of the client's filter this extension honours (merged into the
   * acknowledgement), or nothing; throws a JsonRpcError to refuse the stream (e.g. -32021).
   */
  listen?(filter: JsonObject, ctx: RequestContext): Promise<JsonObject | undefined> | JsonObject | undefined;
  /** Called once with the server it was given to (to notify its listen streams). */
  attach?(server: ListenTarget): void;
  /** The server shuts down. */
  close?(): void;
}
