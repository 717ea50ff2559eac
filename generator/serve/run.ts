/**
 * @module serve/run — serving what serve/target.ts resolved.
 *
 * On stdio: MCP on this process's stdin/stdout (stdout carries protocol messages only; diagnostics, and one
 * line saying it waits for a client, go to stderr, which the stdio transport allows for logging:
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio). It ends when stdin ends
 * and every request has been answered: the client shuts a stdio server down by closing its input, then
 * SIGTERM, then SIGKILL (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#shutdown).
 *
 * Over HTTP: MCP or A2A on `host:port` (127.0.0.1 by default), announced by one line on stdout,
 * `{"ready":true,"url":"…"}`, served until SIGTERM or SIGINT (or, with `exitOnStdinClose`, the end of stdin),
 * then stopped gracefully (serve/lifecycle.ts).
 */
import { listenA2aHttp, type RunningA2aServer } from '@wiregen/runtime/a2a';
import type { ResourceAuthorization } from '@wiregen/runtime/auth';
import { listenMcpHttp, type McpHttpOptions, type McpServer, type RunningHttpServer as RunningMcpServer } from '@wiregen/runtime/mcp';
import { stdioTransport } from '@wiregen/runtime/transports';
import { CliError } from '../commands/command.ts';
import { advertise, refusedStart } from './agent.ts';
import { isLoopback } from './host.ts';
import { inFlight, stopRequested, within } from './lifecycle.ts';
import type { Served } from './target.ts';

/** How long a graceful stop waits for the requests in flight (and an agent's executions) by default. */
export const DEFAULT_SHUTDOWN_MS = 5000;

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Once the server has stopped, the process ends even if the served module left a timer or a socket open
 * (an unref'd timer: it fires only when something else still holds the event loop).
 */
function exitOnceIdle(): void {
  setTimeout(() => process.exit(), 200).unref();
}

export interface StdioOptions {
  /** Answer a line that is not JSON with -32700 (JSON-RPC 2.0) instead of no reply (the MCP SDK's stdio). Default false. */
  readonly parseErrors?: boolean;
  /** Largest accepted line in bytes. Default: the transport's (4 MiB). */
  readonly maxLineBytes?: number;
  /** What the stderr line names (the target as given). */
  readonly name?: string;
  /** How long SIGTERM or SIGINT waits for the requests in flight. Default {@link DEFAULT_SHUTDOWN_MS}. */
  readonly shutdownMs?: number;
}

/** Serves `server` on this process's stdin/stdout until stdin ends (or SIGTERM, SIGINT). */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const transport = stdioTransport(process.stdin, process.stdout, options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {});
  const conn = server.connect(transport, { answerParseErrors: options.parseErrors ?? false });
  log(`wiregen serve: ${options.name ?? 'the server'} serves MCP on stdio: waiting for a client on stdin (stop: close stdin, or Ctrl-C)`);
  const stop = stopRequested({ stdin: false }, log);
  // A signal stops reading; the requests already read are still answered (within the timeout).
  void stop.reason.then(() => transport.close());
  const signalled = stop.reason.then(() => within(conn.finished, options.shutdownMs ?? DEFAULT_SHUTDOWN_MS));
  await Promise.race([conn.finished, signalled]);
  stop.dispose();
  exitOnceIdle();
}

export interface HttpServeOptions {
  readonly port: number;
  /** The address to listen on. Default 127.0.0.1. */
  readonly host?: string;
  /** MCP: the protected-resource hooks of `--auth`. */
  readonly authorization?: ResourceAuthorization;
  /** MCP: resumability and the Host/Origin admission (see {@link admission}). */
  readonly mcp?: Pick<McpHttpOptions, 'resumability' | 'allowedHosts' | 'allowedOrigins'>;
  /** A2A: the base URL the cards name (else the address listened on). */
  readonly publicUrl?: string;
  /** Stop when stdin ends, as well as on SIGTERM and SIGINT. Default false. */
  readonly exitOnStdinClose?: boolean;
  /** How long a graceful stop waits for requests in flight and an agent's executions. Default {@link DEFAULT_SHUTDOWN_MS}. */
  readonly shutdownMs?: number;
}

/** The listen error a user can cause, as one line. */
function listenError(err: unknown, host: string, port: number): CliError | undefined {
  const code = (err as { code?: unknown }).code;
  const why: Record<string, string> = {
    EADDRINUSE: 'the port is in use',
    EACCES: 'not allowed (ports below 1024 need privileges)',
    EADDRNOTAVAIL: 'no such address on this machine',
    ENOTFOUND: 'unknown host name',
    EAI_AGAIN: 'the host name cannot be resolved',
  };
  return typeof code === 'string' && why[code]
    ? new CliError([`wiregen serve: cannot listen on ${host}:${port}: ${why[code]} (${code})`])
    : undefined;
}

/**
 * Serves over HTTP: MCP at /mcp (behind `authorization` when given), A2A at its card's paths, its cards naming
 * `publicUrl` or, without it, the address it listens on; returns once it has stopped.
 */
export async function serveHttp(served: Served, options: HttpServeOptions): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  const shutdownMs = options.shutdownMs ?? DEFAULT_SHUTDOWN_MS;
  // Before listening: a signal that comes while the module starts up is a stop request too.
  const stop = stopRequested({ stdin: options.exitOnStdinClose ?? false }, log);
  let running: RunningMcpServer | RunningA2aServer;
  try {
    running =
      served.protocol === 'mcp'
        ? await listenMcpHttp(served.server, {
            port: options.port,
            host,
            ...options.mcp,
            ...(options.authorization ? { authorization: options.authorization } : {}),
          })
        : await listenA2aHttp(served.server, { ...served.http, port: options.port, host });
  } catch (err) {
    stop.dispose();
    // An agent whose card's security nothing checks, or an MCP server whose requiredScopes no --auth checks:
    // one line (AuthError 'configuration').
    throw listenError(err, host, options.port) ?? refusedStart(err);
  }
  // Streams that stay open until the server ends them are not waited for: an MCP GET stream, a 2026-07-28
  // subscriptions/listen (its Mcp-Method header). The server's close ends them with their result.
  const pending = inFlight(
    running.http,
    (req) => served.protocol === 'mcp' && (req.method === 'GET' || req.headers['mcp-method'] === 'subscriptions/listen'),
  );
  if (served.protocol === 'mcp' && !isLoopback(host) && !options.mcp?.allowedHosts)
    log(`wiregen serve: listening on ${host} with no Host check (DNS rebinding): --allowed-host <name> turns it on for the names clients use`);
  // Before the ready line, so no client reads a card naming another address.
  if (served.protocol === 'a2a') {
    advertise(served.server, options.publicUrl ?? running.url);
    if (options.publicUrl === undefined && /^(0\.0\.0\.0|::|\[::\])$/.test(host))
      log(`wiregen serve: the agent's cards name ${running.url}, which clients elsewhere cannot reach: give --public-url <url>`);
  }
  process.stdout.write(`${JSON.stringify({ ready: true, url: running.url })}\n`);
  const why = await stop.reason;
  const t0 = Date.now();
  if (why !== 'stdin') log(`wiregen serve: ${why}: stopping (${pending.count()} request(s) in flight; waiting up to ${shutdownMs} ms)`);
  // No new connection; idle keep-alive connections close now.
  running.http.close();
  running.http.closeIdleConnections();
  if (!(await pending.drained(shutdownMs))) log(`wiregen serve: ${pending.count()} request(s) still running after ${shutdownMs} ms: closing them`);
  await running.close();
  // An agent waits for its executions and pushes, and leaves its cluster (--store postgres:…), before exiting.
  if (served.protocol === 'a2a' && !(await within(served.server.close(), shutdownMs - (Date.now() - t0))))
    log(`wiregen serve: the agent's executions had not finished after ${shutdownMs} ms: exiting without them`);
  stop.dispose();
  exitOnceIdle();
}
