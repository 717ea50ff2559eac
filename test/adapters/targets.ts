/**
 * @module test/adapters/targets — every way the transport suites serve an MCP server or an A2A agent, on
 * 127.0.0.1:0: `listen…`, the node:http listener on our own `http.createServer`, the fetch handler through the
 * test's node→fetch bridge and through Hono on @hono/node-server, and the Express middleware without and with
 * `express.json()` in front. Each start answers where it listens, how to close it, and what the suites must
 * know of the way it is served (`Traits`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { a2aExpress, a2aFetchHandler, a2aNodeHandler } from '../../runtime/a2a/http-adapters.ts';
import { listenA2aHttp, type A2aHttpOptions } from '../../runtime/a2a/http.ts';
import type { A2aServer } from '../../runtime/a2a/server.ts';
import { mcpExpress, mcpFetchHandler, mcpNodeHandler } from '../../runtime/mcp/http/adapters.ts';
import { HTTP_DEFAULTS, listenMcpHttp, type McpHttpOptions } from '../../runtime/mcp/http/handler.ts';
import type { McpServer } from '../../runtime/mcp/server/server.ts';
import { fetchListener } from './fetch-bridge.ts';

export interface Traits {
  /** Requests outside the server's paths reach it (false: the framework routes only its paths to it, and answers the rest). */
  readonly ownsAllPaths: boolean;
  /** The server reads the body itself (false: a body parser in front read it first, so no body deadline can apply). */
  readonly readsBody: boolean;
  /**
   * The served McpServer/A2aServer is the object the suite built, in the test's process (false: another process
   * serves its own copy of the suite's default fixture, so cases that reach into the server, watch its state or
   * give it a server of their own are left out).
   */
  readonly inProcess: boolean;
  /**
   * The `Connection` header the server sets reaches the client (false: workerd, whose HTTP layer, kj, writes the
   * connection headers itself, Connection among them, and drops those a Worker's response sets; the client sees
   * none, and workerd decides itself whether to keep the connection).
   */
  readonly connectionHeader: boolean;
  /**
   * The server learns that a client went away, aborting `ctx.signal` and releasing the connection (false:
   * workerd gives a Worker no sign of it, neither a cancel of the stream it answers with nor, without the
   * `enable_request_signal` compatibility flag, an abort of `request.signal`; with the flag, not through
   * miniflare either: the request's work is dropped, unseen, https://github.com/cloudflare/workerd/issues/4185).
   */
  readonly seesClientLeave: boolean;
}

export interface Served {
  /** MCP: the endpoint URL (`…/mcp`); A2A: the origin. */
  readonly url: string;
  close(): Promise<void>;
}

/** One way of serving: what the suites must know of it, and how to start a server that way. */
export interface Target<S, O> {
  readonly traits: Traits;
  start(server: S, options: O): Promise<Served>;
}
export type McpTarget = Target<McpServer, McpHttpOptions>;
export type A2aTarget = Target<A2aServer, A2aHttpOptions>;

/** What Node's HTTP servers do for every target here. */
const ON_NODE = { inProcess: true, connectionHeader: true, seesClientLeave: true } as const;
const OWN: Traits = { ownsAllPaths: true, readsBody: true, ...ON_NODE };
const ROUTED: Traits = { ownsAllPaths: false, readsBody: true, ...ON_NODE };
const PARSED: Traits = { ownsAllPaths: false, readsBody: false, ...ON_NODE };
/** What an adapter's user sets on a loopback server: the Host check `listenMcpHttp` turns on by itself. */
export const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

async function listenOn(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ origin: string; http: Server }> {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, http };
}

async function stop(http: Server, cleanup: () => void): Promise<void> {
  cleanup();
  // Listen streams end with their result: let those last frames go out before the sockets close.
  await new Promise((r) => setImmediate(r));
  await new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeIdleConnections();
    setTimeout(() => http.closeAllConnections(), 100).unref();
  });
}

async function honoOn(app: Hono): Promise<{ origin: string; http: Server }> {
  let http!: Server;
  const port = await new Promise<number>((resolve) => {
    http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port)) as Server;
  });
  return { origin: `http://127.0.0.1:${port}`, http };
}

const endpoint = (origin: string, options: McpHttpOptions) => `${origin}${options.path ?? HTTP_DEFAULTS.path}`;
const withHosts = (options: McpHttpOptions): McpHttpOptions => ({ allowedHosts: LOOPBACK, ...options });

export const MCP_TARGETS: Record<string, McpTarget> = {
  listenMcpHttp: {
    traits: OWN,
    start: async (server, options) => {
      const r = await listenMcpHttp(server, options);
      return { url: r.url, close: () => r.close() };
    },
  },
  'mcpNodeHandler on http.createServer': {
    traits: OWN,
    start: async (server, options) => {
      const handler = mcpNodeHandler(server, withHosts(options));
      const { origin, http } = await listenOn(handler);
      return { url: endpoint(origin, options), close: () => stop(http, handler.close) };
    },
  },
  'mcpFetchHandler through a node→fetch bridge': {
    traits: OWN,
    start: async (server, options) => {
      const handler = mcpFetchHandler(server, withHosts(options));
      const { origin, http } = await listenOn(fetchListener(handler));
      return { url: endpoint(origin, options), close: () => stop(http, handler.close) };
    },
  },
  'mcpFetchHandler in Hono on @hono/node-server': {
    traits: ROUTED,
    start: async (server, options) => {
      const handler = mcpFetchHandler(server, withHosts(options));
      const app = new Hono();
      app.all(options.path ?? HTTP_DEFAULTS.path, (c) => handler(c.req.raw));
      const { origin, http } = await honoOn(app);
      return { url: endpoint(origin, options), close: () => stop(http, handler.close) };
    },
  },
  'mcpExpress (no body parser)': {
    traits: ROUTED,
    start: async (server, options) => {
      const handler = mcpExpress(server, withHosts(options));
      const app = express();
      app.use(handler);
      const { origin, http } = await listenOn(app);
      return { url: endpoint(origin, options), close: () => stop(http, handler.close) };
    },
  },
  'mcpExpress after express.json()': {
    traits: PARSED,
    start: async (server, options) => {
      const handler = mcpExpress(server, withHosts(options));
      const app = express();
      app.use(express.json({ limit: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes }), handler, handler.errors);
      const { origin, http } = await listenOn(app);
      return { url: endpoint(origin, options), close: () => stop(http, handler.close) };
    },
  },
};

const A2A_BODY_LIMIT = 4 * 1024 * 1024;

export const A2A_TARGETS: Record<string, A2aTarget> = {
  listenA2aHttp: {
    traits: OWN,
    start: async (server, options) => {
      const r = await listenA2aHttp(server, options);
      return { url: r.url, close: () => r.close() };
    },
  },
  'a2aNodeHandler on http.createServer': {
    traits: OWN,
    start: async (server, options) => {
      const { origin, http } = await listenOn(a2aNodeHandler(server, options));
      return { url: origin, close: () => stop(http, () => {}) };
    },
  },
  'a2aFetchHandler through a node→fetch bridge': {
    traits: OWN,
    start: async (server, options) => {
      const { origin, http } = await listenOn(fetchListener(a2aFetchHandler(server, options)));
      return { url: origin, close: () => stop(http, () => {}) };
    },
  },
  'a2aFetchHandler in Hono on @hono/node-server': {
    traits: OWN,
    start: async (server, options) => {
      const agent = a2aFetchHandler(server, options);
      const app = new Hono();
      app.all('*', (c) => agent(c.req.raw));
      const { origin, http } = await honoOn(app);
      return { url: origin, close: () => stop(http, () => {}) };
    },
  },
  'a2aExpress (no body parser)': {
    traits: ROUTED,
    start: async (server, options) => {
      const app = express();
      app.use(a2aExpress(server, options));
      const { origin, http } = await listenOn(app);
      return { url: origin, close: () => stop(http, () => {}) };
    },
  },
  'a2aExpress after express.json()': {
    traits: PARSED,
    start: async (server, options) => {
      const agent = a2aExpress(server, options);
      const app = express();
      app.use(express.json({ limit: options.maxBodyBytes ?? A2A_BODY_LIMIT }), agent, agent.errors);
      const { origin, http } = await listenOn(app);
      return { url: origin, close: () => stop(http, () => {}) };
    },
  },
};
