/**
 * @module serve — `wiregen serve <fixture> --stdio`: runs a fixture (schemas/fixtures/<fixture>.yaml with
 * the behaviours of fixtures/<fixture>.ts) as an MCP server on stdin/stdout. stdout carries protocol messages
 * only; diagnostics go to stderr. Exits 0 when stdin closes and every request has been answered.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { catalogServerOptions, type FixtureDefinition } from './mcp/catalog.ts';
import { listenMcpHttp, type McpHttpOptions } from './mcp/http.ts';
import { McpServer } from './mcp/server.ts';
import { stdioTransport } from './transports/stdio.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export interface ServeOptions {
  /** Answer lines that are not JSON with -32700 (JSON-RPC 2.0) instead of no reply (the MCP SDK's stdio). */
  readonly parseErrors?: boolean;
  /** Largest accepted line in bytes. */
  readonly maxLineBytes?: number;
}

/** Loads fixtures/<name>.ts; an unknown name is an error listing the fixtures there are. */
export async function loadFixture(name: string): Promise<FixtureDefinition> {
  const path = join(FIXTURES, `${name}.ts`);
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !existsSync(path)) {
    const { readdirSync } = await import('node:fs');
    const known = readdirSync(FIXTURES).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
    throw new Error(`unknown fixture ${JSON.stringify(name)}; fixtures: ${known.join(', ')}`);
  }
  return ((await import(pathToFileURL(path).href)) as { default: FixtureDefinition }).default;
}

/**
 * Serves `name` over Streamable HTTP on 127.0.0.1:`port` (0: any free port). When listening, prints one line
 * `{"conformanceReady":true,"url":"http://127.0.0.1:<port>/mcp"}` on stdout (what the official conformance
 * runner's harness waits for), then serves until stdin closes, and closes cleanly.
 */
export async function serveHttp(name: string, port: number, options: McpHttpOptions = {}): Promise<void> {
  const fixture = await loadFixture(name);
  const server = new McpServer(catalogServerOptions(fixture));
  const running = await listenMcpHttp(server, { ...options, port });
  process.stdout.write(JSON.stringify({ conformanceReady: true, url: running.url }) + '\n');
  await new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
    process.stdin.resume();
  });
  await running.close();
}

/** Serves `name` on this process's stdin/stdout until stdin closes. */
export async function serveStdio(name: string, options: ServeOptions = {}): Promise<void> {
  const fixture = await loadFixture(name);
  const server = new McpServer(catalogServerOptions(fixture));
  const transport = stdioTransport(process.stdin, process.stdout, options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {});
  const conn = server.connect(transport, { answerParseErrors: options.parseErrors ?? false });
  await conn.finished;
}
