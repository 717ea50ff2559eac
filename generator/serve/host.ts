/**
 * @module serve/host — `wiregen serve --http <port> --host <host>` and the MCP admission that goes with it.
 *
 * MCP over Streamable HTTP must guard against DNS rebinding: check the Origin header, and bind to localhost
 * when running locally (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning).
 * The runtime checks the Host header against loopback names when it listens on loopback and Origins against
 * loopback names always (runtime/transports/exchange.ts refusedOrigin). A server listening elsewhere (0.0.0.0 in
 * a container, a LAN address) is reached by other names: `--allowed-host` names them (the Host check stays on
 * with them, loopback names kept on a loopback bind), `--allowed-origin` adds the hosts of browser origins.
 */
import { isIP } from 'node:net';
import type { McpHttpOptions } from '@wiregen/runtime/mcp';
import { CliError } from '../commands/command.ts';

/** What listenMcpHttp counts as loopback (its default Host check), and the names a loopback bind answers to. */
const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** A host name: RFC 1123 labels. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** `--host` as node:net listens on it: an IP address (IPv6 with or without brackets) or a host name. */
export function checkHost(given: string): string {
  const bare = /^\[(.*)\]$/.exec(given)?.[1] ?? given;
  if (isIP(bare) || HOST_NAME.test(bare)) return bare;
  throw new CliError([`wiregen serve: --host ${JSON.stringify(given)} is not an address or host name (e.g. 127.0.0.1, 0.0.0.0, ::, localhost)`]);
}

/** A name a Host header or an Origin may carry, lower case (IPv6 in brackets, as the Host header writes it). */
export function checkHostName(flag: string, given: string): string {
  const name = given.toLowerCase();
  const bare = /^\[(.*)\]$/.exec(name)?.[1] ?? name;
  if (isIP(bare) === 6) return `[${bare}]`;
  if (isIP(bare) || HOST_NAME.test(bare)) return bare;
  throw new CliError([`wiregen serve: ${flag} ${JSON.stringify(given)} is not a host name (e.g. mcp.example.com, 10.0.0.5), without scheme or port`]);
}

/** Whether `host` (as checkHost returned it) is loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_BINDS.has(host);
}

/**
 * The Host and Origin admission of an MCP server listening on `host`: the runtime's defaults when no name is
 * given; with `--allowed-host` names, the Host check on for them (and the loopback names on a loopback bind);
 * with `--allowed-origin` hosts, Origins on them beside the loopback ones.
 */
export function admission(
  host: string,
  allowedHosts: readonly string[],
  allowedOrigins: readonly string[],
): Pick<McpHttpOptions, 'allowedHosts' | 'allowedOrigins'> {
  const hosts = allowedHosts.length ? [...new Set([...(isLoopback(host) ? LOOPBACK_NAMES : []), ...allowedHosts])] : undefined;
  const origins = allowedOrigins.length ? [...new Set([...LOOPBACK_NAMES, '::1', ...allowedOrigins])] : undefined;
  return { ...(hosts ? { allowedHosts: hosts } : {}), ...(origins ? { allowedOrigins: origins } : {}) };
}
