/**
 * @module mcp/stateless/request — one 2026-07-28 request (https://modelcontextprotocol.io/specification/2026-07-28),
 * served in the order of its steps; each step is a function of the module named beside it, and none calls
 * back into an earlier one. The order of the checks is the order of the answers the golden corpus and the
 * official SDK's recorded sessions give when several are wrong at once.
 *
 *   method → capabilities → envelope and version → params → requestState → handler → run
 *     → input-required → envelope → result check
 *
 * The same request arrives on a connection (stdio, a listen stream: stateless/session.ts) or alone over
 * Streamable HTTP (http/call.ts). Nothing in it waits but the load of a revision's package (the first request
 * of a revision) and the handler.
 */
import type { IncomingRequest } from '../../jsonrpc/incoming.ts';
import { isObject, type JsonObject } from '../../jsonrpc/message.ts';
import { advertisedVersions, loadedRevision, loadRevision, requireRevision, servedStateless } from '../revisions.ts';
import { methodNotFound } from '../server/errors.ts';
import { checkResult } from '../server/result-check.ts';
import { runHandler } from '../server/run.ts';
import type { Serving } from '../server/serving.ts';
import { handlerOf } from './handler.ts';
import { askingResult, isInputRequired } from './input-required.ts';
import { checkRequestMeta, META, unloadedVersion, unsupportedVersion } from './meta.ts';
import { extensionMethod, requireCapabilities, requireServed } from './method.ts';
import { answersFor } from './mrtr.ts';
import { checkParams } from './params.ts';
import { verifiedState } from './request-state.ts';
import { withEnvelope } from './result.ts';

/** Serves one 2026-07-28 request on `conn`; a valid one locks a connection to this era. */
export async function serveStateless(conn: Serving, req: IncomingRequest): Promise<unknown> {
  const { server } = conn;

  // method (method.ts): an extension's, or a client request of the newest revision served; else -32601. A
  // server that serves no 2026-07-28-era revision (supportedVersions lists handshake ones only) answers -32022.
  const { supportedVersions } = server.options;
  const newest = servedStateless(supportedVersions);
  if (newest === undefined) throw unsupportedVersion(askedVersion(req.params), advertisedVersions(supportedVersions));
  const extension = extensionMethod(server.extensions, req.method);
  const probe = extension?.entry ?? (loadedRevision(newest) ?? (await requireRevision(newest))).lookup(req.method);
  requireServed(server, req.method, probe);

  // capabilities (method.ts): its server capability gates advertised; else -32601.
  requireCapabilities(probe, server.options.capabilities.stateless);

  // envelope and version (meta.ts): the `_meta` envelope, and the revision it asks for, loaded.
  const advertised = advertisedVersions(supportedVersions);
  const unloaded = unloadedVersion(req.params);
  if (unloaded && advertised.includes(unloaded)) await loadRevision(unloaded);
  const meta = checkRequestMeta(req.params, newest, advertised);
  const revision = loadedRevision(meta.protocolVersion)!;
  const entry = extension?.entry ?? revision.lookup(req.method);
  if (!entry) throw methodNotFound(req.method);

  // params (params.ts): checked against the revision's request schema; else -32602.
  const params = checkParams(entry, req.params!);

  // requestState (request-state.ts): what an earlier round kept, verified; else -32602.
  const verifying = verifiedState(server.codec, entry, req.method, params);
  const state = verifying === undefined ? undefined : await verifying;

  // The request is valid: a connection serves this era from now on.
  conn.enterStateless();

  // handler (handler.ts): the runtime's, the extension's or the server's; else -32601.
  const handler = handlerOf(conn, req.method, extension);

  // run (server/run.ts): the handler, with a context whose input comes from the retry's inputResponses (mrtr.ts).
  const responses = isObject(params['inputResponses']) ? params['inputResponses'] : {};
  const { value, kept } = await runHandler(conn, handler, params, req, {
    era: 'stateless',
    protocolVersion: revision.version,
    clientCapabilities: meta.clientCapabilities,
    clientInfo: meta.clientInfo,
    progressToken: meta.progressToken,
    logLevel: meta.logLevel,
    state,
    obtain: async (requests) => answersFor(requests, responses, revision),
  });

  // input-required (input-required.ts): a round that asks for input, checked, its kept state signed.
  const asking = isInputRequired(value);
  const token = asking && kept.set ? await server.codec.sign(req.method, params, kept.data) : undefined;
  const result = asking ? askingResult(value, entry, meta.clientCapabilities, revision, token) : value;

  // envelope (result.ts): resultType, the server's identity, cache hints.
  const shaped = withEnvelope(server.options, entry, result);

  // result check (server/result-check.ts): against the revision's result schema; else -32603.
  checkResult(server, entry, shaped, revision);
  return shaped;
}

/** The version a request's `_meta` asks for, as -32022 reports it ('' when it names none). */
function askedVersion(params: JsonObject | undefined): string {
  const meta = params?.['_meta'];
  const asked = isObject(meta) ? meta[META.protocolVersion] : undefined;
  return typeof asked === 'string' ? asked : '';
}
