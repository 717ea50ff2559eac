/**
 * @module mcp/stateless/stateless — the 2026-07-28 era: every request carries its `_meta` envelope (checked in the
 * order meta.ts gives), input comes back on a retry (multi round-trip requests,
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/mrtr), and every result carries
 * resultType, the server's identity, and cache hints where the manifest marks the method cacheable. The
 * era's side of a connection is {@link StatelessSession}.
 */
import { ErrorCode, forValidation, isObject, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { IncomingRequest } from '../../jsonrpc/incoming.ts';
import type { EraSession } from '../server/connection.ts';
import { invalidParams, methodNotFound } from '../server/errors.ts';
import { answerMatches, withoutFormContent } from './elicit-answer.ts';
import { checkRequestMeta, META } from './meta.ts';
import { checkClientCapabilities, InputRequired } from './mrtr.ts';
import {
  advertisedVersions,
  isStatelessVersion,
  LATEST_STATELESS,
  loadedRevision,
  loadRevision,
  requireRevision,
  type Revision,
} from '../revisions.ts';
import { listen, listChangedToListens, resourceUpdatedToListens, type ListKind } from '../server/subscriptions.ts';
import type { Serving } from '../server/serving.ts';
import type { Handler, WireInputRequest } from '../server/types.ts';
import type { MethodEntry } from '../../core/index.ts';

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

/** The answers a retry carries for `requests`, or the InputRequired signal for those still missing. */
function answersFor(requests: Readonly<Record<string, WireInputRequest>>, responses: JsonObject, revision: Revision): Record<string, JsonObject> {
  const missing: Record<string, WireInputRequest> = {};
  const answers: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests)) {
    const answer = responses[key];
    if (!isObject(answer)) {
      missing[key] = request;
      continue;
    }
    if (!answerMatches(request, answer, revision.lookup(request.method)?.result))
      throw new JsonRpcError(ErrorCode.InvalidParams, `inputResponses.${key} is not a valid ${request.method} result`);
    answers[key] = answer;
  }
  if (Object.keys(missing).length) throw new InputRequired(missing);
  return answers;
}

function isInputRequired(result: unknown): result is JsonObject {
  return isObject(result) && result['resultType'] === 'input_required';
}

/** Adds the era's envelope: resultType, cache hints on cacheable methods, the server's identity in _meta. */
function envelope(conn: Serving, entry: MethodEntry, result: unknown): JsonObject {
  const out: JsonObject = isObject(result) ? Object.assign({}, result) : {};
  if (out['resultType'] === undefined) out['resultType'] = 'complete';
  if (entry.cacheable && out['resultType'] === 'complete') {
    const cache = conn.server.options.cache ?? { ttlMs: 0, cacheScope: 'private' };
    if (out['ttlMs'] === undefined) out['ttlMs'] = cache.ttlMs;
    if (out['cacheScope'] === undefined) out['cacheScope'] = cache.cacheScope;
  }
  const meta: JsonObject = isObject(out['_meta']) ? Object.assign({}, out['_meta']) : {};
  meta[META.serverInfo] = conn.server.options.serverInfo;
  out['_meta'] = meta;
  return out;
}

/**
 * The 2026-07-28 era of a connection: nothing is negotiated, every request carries what it needs; change
 * notifications go to the listen streams (subscriptions.ts).
 */
export class StatelessSession implements EraSession {
  readonly era = 'stateless';
  readonly negotiatedVersion = undefined;
  readonly #conn: Serving;

  constructor(conn: Serving) {
    this.#conn = conn;
  }

  serve(req: IncomingRequest): Promise<unknown> {
    return serveStateless(this.#conn, req);
  }

  notified(): boolean {
    return false;
  }

  deliverListChanged(kind: ListKind): void {
    listChangedToListens(this.#conn, kind);
  }

  deliverResourceUpdated(uri: string): void {
    resourceUpdatedToListens(this.#conn, uri);
  }
}

/** Serves one 2026-07-28 request; a valid one locks the connection to this era. */
export async function serveStateless(conn: Serving, req: IncomingRequest): Promise<unknown> {
  // An extension's method (mcp/extensions.ts): its entry comes from the extension's pinned schema.
  const extension = conn.server.extensionMethod(req.method);
  const probe = extension?.entry ?? (loadedRevision(LATEST_STATELESS) ?? (await requireRevision(LATEST_STATELESS))).lookup(req.method);
  if (probe?.kind !== 'request' || probe.direction === 'server-to-client' || probe.embedded)
    throw conn.methodNotFound(req.method, probe, LATEST_STATELESS);
  const caps = conn.server.options.capabilities.stateless;
  conn.requireGates(probe, caps);
  const asked = isObject(req.params?.['_meta']) ? req.params['_meta'][META.protocolVersion] : undefined;
  if (typeof asked === 'string' && isStatelessVersion(asked) && !loadedRevision(asked)) await loadRevision(asked);
  const meta = checkRequestMeta(req.params, LATEST_STATELESS, advertisedVersions(conn.server.options.supportedVersions));
  const revision = loadedRevision(meta.protocolVersion)!;
  const entry = extension?.entry ?? revision.lookup(req.method);
  if (!entry) throw methodNotFound(req.method);
  const params = req.params!;
  if (entry.params && !entry.params(forValidation(withoutFormContent(params)))) throw invalidParams(entry.params.errors);
  const { server } = conn;
  const state =
    entry.inputRequired && typeof params['requestState'] === 'string' ? server.codec.verify(params['requestState'], req.method, params) : undefined;
  conn.enterStateless();
  const handler = BUILTIN[req.method]?.(conn) ?? extension?.handler ?? conn.handlerFor(req.method);
  if (!handler) throw methodNotFound(req.method);
  const responses = isObject(params['inputResponses']) ? params['inputResponses'] : {};
  const { value, kept } = await conn.run(handler, params, req, {
    era: 'stateless',
    protocolVersion: revision.version,
    clientCapabilities: meta.clientCapabilities,
    clientInfo: meta.clientInfo,
    progressToken: meta.progressToken,
    logLevel: meta.logLevel,
    state,
    obtain: async (requests) => answersFor(requests, responses, revision),
  });
  let result: unknown = value;
  if (isInputRequired(value)) {
    if (!entry.inputRequired) throw new JsonRpcError(ErrorCode.InternalError, 'Input-required result is not permitted for this operation');
    const asking: JsonObject = { ...value };
    if (isObject(asking['inputRequests']))
      checkClientCapabilities(asking['inputRequests'] as Record<string, WireInputRequest>, meta.clientCapabilities, revision);
    if (kept.set) asking['requestState'] = server.codec.sign(req.method, params, kept.data);
    if (asking['inputRequests'] === undefined && asking['requestState'] === undefined)
      throw new JsonRpcError(ErrorCode.InternalError, 'Invalid input-required result');
    result = asking;
  }
  const shaped = envelope(conn, entry, result);
  conn.checkResult(entry, shaped, revision);
  return shaped;
}
