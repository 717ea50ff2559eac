/**
 * @module serve/run — serving what serve/target.ts resolved: an MCP server on this process's stdin/stdout
 * (stdout carries protocol messages only; diagnostics go to stderr; done when stdin closes and every request
 * has been answered), or an MCP or A2A server over HTTP on 127.0.0.1, announced by one line on stdout,
 * `{"ready":true,"url":"…"}`, and closed cleanly when stdin closes.
 */
import { listenA2aHttp } from '@wiregen/runtime/a2a';
import type { ResourceAuthorization } from '@wiregen/runtime/auth';
import { listenMcpHttp, type McpHttpOptions, type McpServer } from '@wiregen/runtime/mcp';
import { stdioTransport } from '@wiregen/runtime/transports';
import { advertise, refusedStart } from './agent.ts';
import type { Served } from './target.ts';

export interface StdioOptions {
  /** Answer a line that is not JSON with -32700 (JSON-RPC 2.0) instead of no reply (the MCP SDK's stdio). Default false. */
  readonly parseErrors?: boolean;
  /** Largest accepted line in bytes. Default: the transport's (4 MiB). */
  readonly maxLineBytes?: number;
}

function untilStdinCloses(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
    process.stdin.resume();
  });
}

/** Serves `server` on this process's stdin/stdout until stdin closes. */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const transport = stdioTransport(process.stdin, process.stdout, options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {});
  const conn = server.connect(transport, { answerParseErrors: options.parseErrors ?? false });
  await conn.finished;
}

/**
 * Serves over HTTP on 127.0.0.1:`port` (0: any free port): MCP at /mcp (behind `authorization` when given, with
 * `mcp`'s resumability when given), A2A at its card's paths, its cards naming `publicUrl` or, without it, the
 * address it listens on.
 */
export async function serveHttp(
  served: Served,
  port: number,
  authorization?: ResourceAuthorization,
  mcp: Pick<McpHttpOptions, 'resumability'> = {},
  publicUrl?: string,
): Promise<void> {
  const running =
    served.protocol === 'mcp'
      ? await listenMcpHttp(served.server, { port, ...mcp, ...(authorization ? { authorization } : {}) })
      : await listenA2aHttp(served.server, { ...served.http, port }).catch(refusedStart);
  // Before the ready line, so no client reads a card naming another address.
  if (served.protocol === 'a2a') advertise(served.server, publicUrl ?? running.url);
  process.stdout.write(`${JSON.stringify({ ready: true, url: running.url })}\n`);
  await untilStdinCloses();
  await running.close();
  // An agent waits for its executions and pushes, and leaves its cluster (--store postgres:…), before exiting.
  if (served.protocol === 'a2a') await served.server.close();
}
