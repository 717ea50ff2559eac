/**
 * @module mcp/handshake/initialize — initialize, which opens the handshake era on a connection
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization): the revision
 * negotiated (the one asked for if known, else the newest), the client's capabilities and identity kept in
 * the connection's {@link HandshakeSession}, the server's answered.
 */
import type { ClientCapabilities } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, isObject, JsonRpcError, type JsonObject } from '../../jsonrpc/message.ts';
import type { IncomingRequest } from '../../jsonrpc/peer.ts';
import { advertisedVersions, negotiatedHandshake, requireRevision } from '../revisions.ts';
import type { EraConnection } from '../server/connection.ts';
import { checkResult } from '../server/result-check.ts';
import type { Open } from '../server/types.ts';
import { implementationOf } from '../stateless/meta.ts';
import { invalidRequestParameters } from './errors.ts';
import { HandshakeSession } from './session.ts';

/**
 * initialize: negotiates the revision (the one asked for if served, else the newest served) and locks the era;
 * -32602 with the revisions served when it serves none of this era.
 */
export async function initialize(conn: EraConnection, req: IncomingRequest): Promise<unknown> {
  const params = req.params ?? {};
  const asked = params['protocolVersion'];
  const { supportedVersions } = conn.server.options;
  const version = negotiatedHandshake(supportedVersions, asked);
  // A server that serves no handshake revision (supportedVersions lists 2026-07-28-era ones only): the
  // lifecycle page's error for a version the server cannot agree to.
  if (version === undefined)
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Unsupported protocol version', {
      supported: [...advertisedVersions(supportedVersions)],
      requested: asked ?? null,
    });
  const revision = await requireRevision(version);
  const entry = revision.lookup('initialize')!;
  if (!req.params || (entry.params && !entry.params(req.params))) throw invalidRequestParameters();
  const { options } = conn.server;
  const clientCapabilities: Open<ClientCapabilities> = isObject(params['capabilities']) ? params['capabilities'] : {};
  conn.enter(new HandshakeSession(conn, revision, clientCapabilities, implementationOf(params['clientInfo'])));
  // `instructionsIn: 'serverInfo'` (the reference Golden Server) nests them in the Implementation.
  const nested = options.instructions !== undefined && options.instructionsIn === 'serverInfo';
  const serverInfo = nested ? { ...options.serverInfo, instructions: options.instructions } : options.serverInfo;
  const result: JsonObject = { protocolVersion: revision.version, capabilities: options.capabilities.handshake, serverInfo };
  if (options.instructions !== undefined && !nested) result['instructions'] = options.instructions;
  checkResult(conn.server, entry, result, revision);
  return result;
}
