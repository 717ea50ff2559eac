/**
 * @module serve — `wiregen serve <fixture>`: runs a fixture (schemas/fixtures/<fixture>.yaml with the
 * behaviours of fixtures/<fixture>.ts) as an MCP server on stdin/stdout or Streamable HTTP. On stdio, stdout
 * carries protocol messages only; diagnostics go to stderr. Exits 0 when stdin closes and every request has
 * been answered.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { JsonObject } from './jsonrpc/message.ts';
import { catalogServerOptions, type FixtureDefinition } from './mcp/catalog.ts';
import { isAgentDefinition, type AgentDefinition } from './a2a/agent.ts';
import { listenA2aHttp } from './a2a/http.ts';
import { A2aServer } from './a2a/server.ts';
import { listenMcpHttp, type McpHttpOptions } from './mcp/http.ts';
import { LATEST_STATELESS, requireRevision, type Revision } from './mcp/revisions.ts';
import { McpServer } from './mcp/server.ts';
import { CHANGE_NOTIFICATIONS } from './mcp/subscriptions.ts';
import { stdioTransport } from './transports/stdio.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export interface FixtureChoice {
  /** A handler set the fixture module exports as `handlerSets[<name>]` (default: its default export). */
  readonly handlers?: string;
  /**
   * Serve as a transport that can deliver change notifications: every advertised tools/prompts/resources
   * capability gets listChanged (and resources subscribe) true, in both eras.
   */
  readonly notifications?: boolean;
}

export interface ServeOptions extends FixtureChoice {
  /** Answer lines that are not JSON with -32700 (JSON-RPC 2.0) instead of no reply (the MCP SDK's stdio). */
  readonly parseErrors?: boolean;
  /** Largest accepted line in bytes. */
  readonly maxLineBytes?: number;
}

interface FixtureModule {
  readonly default: FixtureDefinition | AgentDefinition;
  readonly handlerSets?: Readonly<Record<string, FixtureDefinition>>;
}

/** Imports fixtures/<name>.ts; an unknown name is an error listing the fixtures there are. */
async function importFixture(name: string): Promise<FixtureModule> {
  const path = join(FIXTURES, `${name}.ts`);
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !existsSync(path)) {
    const known = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3));
    throw new Error(`unknown fixture ${JSON.stringify(name)}; fixtures: ${known.join(', ')}`);
  }
  return (await import(pathToFileURL(path).href)) as FixtureModule;
}

/** Loads an MCP fixture (and the handler set asked for). */
export async function loadFixture(name: string, handlers?: string): Promise<FixtureDefinition> {
  const mod = await importFixture(name);
  if (isAgentDefinition(mod.default)) throw new Error(`${name} is an A2A agent: serve it with --http`);
  if (handlers === undefined || handlers === 'base') return mod.default as FixtureDefinition;
  const set = mod.handlerSets?.[handlers];
  if (!set)
    throw new Error(
      `fixture ${name} has no handler set ${JSON.stringify(handlers)}; sets: base${Object.keys(mod.handlerSets ?? {})
        .map((s) => `, ${s}`)
        .join('')}`,
    );
  return set;
}

/** Capabilities as a transport that delivers change notifications advertises them. */
export function withNotifications(caps: JsonObject, revision: Revision): JsonObject {
  const out: JsonObject = { ...caps };
  // The gates the manifest gives the change notifications (e.g. server.tools.listChanged), opened in each
  // capability section the fixture has.
  for (const method of CHANGE_NOTIFICATIONS)
    for (const gate of revision.lookup(method)?.capabilities ?? []) {
      const [section, flag] = gate.path;
      if (gate.side !== 'server' || section === undefined || flag === undefined || out[section] === undefined) continue;
      out[section] = { ...(out[section] as JsonObject), [flag]: true };
    }
  return out;
}

/** Serves an A2A agent fixture on 127.0.0.1:`port`; prints `{"ready":true,"url":…}` when listening, runs until stdin closes. */
export async function serveAgentHttp(agent: AgentDefinition, port: number): Promise<void> {
  const server = new A2aServer({
    card: agent.card,
    ...(agent.extendedCard ? { extendedCard: agent.extendedCard } : {}),
    executor: agent.executor,
    behaviour: agent.behaviour,
  });
  const running = await listenA2aHttp(server, { ...agent.http, port });
  process.stdout.write(`${JSON.stringify({ ready: true, url: running.url })}\n`);
  await untilStdinCloses();
  await running.close();
}

function untilStdinCloses(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
    process.stdin.resume();
  });
}

/** A server for the fixture as chosen. */
export async function fixtureServer(name: string, choice: FixtureChoice = {}): Promise<McpServer> {
  const fixture = await loadFixture(name, choice.handlers);
  const options = catalogServerOptions(fixture);
  if (!choice.notifications) return new McpServer(options);
  const latest = await requireRevision(LATEST_STATELESS);
  return new McpServer({
    ...options,
    capabilities: {
      handshake: withNotifications(options.capabilities.handshake, latest),
      stateless: withNotifications(options.capabilities.stateless, latest),
    },
  });
}

/**
 * Serves `name` over Streamable HTTP on 127.0.0.1:`port` (0: any free port). When listening, prints one line
 * `{"conformanceReady":true,"url":"http://127.0.0.1:<port>/mcp"}` on stdout (what the official conformance
 * runner's harness waits for), then serves until stdin closes, and closes cleanly.
 */
export async function serveHttp(name: string, port: number, options: McpHttpOptions & FixtureChoice = {}): Promise<void> {
  const mod = await importFixture(name);
  if (isAgentDefinition(mod.default)) return serveAgentHttp(mod.default, port);
  const server = await fixtureServer(name, options);
  const running = await listenMcpHttp(server, { ...options, port });
  process.stdout.write(`${JSON.stringify({ conformanceReady: true, url: running.url })}\n`);
  await untilStdinCloses();
  await running.close();
}

/** Serves `name` on this process's stdin/stdout until stdin closes. */
export async function serveStdio(name: string, options: ServeOptions = {}): Promise<void> {
  const server = await fixtureServer(name, options);
  const transport = stdioTransport(process.stdin, process.stdout, options.maxLineBytes ? { maxLineBytes: options.maxLineBytes } : {});
  const conn = server.connect(transport, { answerParseErrors: options.parseErrors ?? false });
  await conn.finished;
}
