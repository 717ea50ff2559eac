/**
 * @module test/runtimes/served — what the Bun, Deno and workerd server scripts serve, as one fetch function,
 * chosen by a ServeConfig (WIREGEN_SERVE; on workerd the Worker's binding of that name): `mcp` the transport
 * suites' MCP fixture (test/adapters/mcp-fixture.ts) through `mcpFetchHandler` with the suite's options, plus
 * two test-only routes that let the test process see into the fixture (`GET /_control/state`: whether the
 * `wait` tool started, the `ctx.signal` aborts and the open connections; `POST /_control/list-changed`:
 * `server.listChanged('tools')`); `tour` a code-first server with a tool, a resource and a prompt for the
 * official clients, its schemas JSON Schemas (`tour`, compiled by ajv) or Zod's (`tour-zod`, no ajv);
 * `valibot` a code-first tool with a Valibot schema; `a2a` the suite's scripted agent
 * (test/adapters/a2a-fixture.ts) through `a2aFetchHandler`, with `GET /_control/state` naming the answer
 * streams the HTTP layer stopped early. Bundled with esbuild (launch.ts); imports nothing Node-only of its own.
 */
import { a2aFetchHandler } from '../../runtime/a2a/http-adapters.ts';
import type { A2aHttpOptions } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { mcpServer } from '../../runtime/mcp/index.ts';
import { mcpFetchHandler } from '../../runtime/mcp/http/adapters.ts';
import type { McpHttpOptions } from '../../runtime/mcp/http/handler.ts';
import type { PlatformContext } from '../../runtime/platform/env.ts';
import { scripted, watchEndedStreams } from '../adapters/a2a-fixture.ts';
import { mcpFixture } from '../adapters/mcp-fixture.ts';
import { testCard } from '../helpers/a2a-server.ts';
import * as v from 'valibot';
import { z } from 'zod';

export type ServeConfig =
  | { readonly kind: 'mcp'; readonly options: McpHttpOptions }
  | { readonly kind: 'tour' | 'tour-zod' | 'valibot' }
  | { readonly kind: 'a2a'; readonly options: A2aHttpOptions };

export interface Serving {
  /** `env` and `ctx` as a Worker's fetch is given them (ctx.waitUntil keeps a request's work after its response). */
  fetch(request: Request, env?: unknown, ctx?: PlatformContext): Promise<Response>;
  close(): void;
}

/** The Host check an adapter's user turns on for a loopback server (test/adapters/targets.ts LOOPBACK). */
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

function mcp(options: McpHttpOptions): Serving {
  const fixture = mcpFixture();
  let waiting = false;
  void fixture.waiting.then(() => (waiting = true));
  const handler = mcpFetchHandler(fixture.server, { allowedHosts: LOOPBACK, ...options });
  return {
    fetch: async (request, env, ctx) => {
      const path = new URL(request.url).pathname;
      if (path === '/_control/state') return Response.json({ waiting, aborted: fixture.aborted, connections: fixture.server.connections.size });
      if (path === '/_control/list-changed') {
        fixture.server.listChanged('tools');
        return new Response(null, { status: 204 });
      }
      return handler(request, env, ctx);
    },
    close: () => handler.close(),
  };
}

/** The tour's tool, resource and prompt, with JSON Schemas (compiled by ajv) or with Zod's (validated by Zod, no ajv). */
const SCHEMAS = {
  json: {
    input: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
    output: { type: 'object', properties: { fahrenheit: { type: 'number' } }, required: ['fahrenheit'] },
    arguments: [{ name: 'city', required: true }],
  },
  zod: {
    input: z.object({ celsius: z.number() }),
    output: z.object({ fahrenheit: z.number() }),
    arguments: z.object({ city: z.string() }),
  },
} as const;

async function tour(schemas: 'json' | 'zod'): Promise<Serving> {
  const { input, output, arguments: args } = SCHEMAS[schemas];
  const server = await mcpServer({ name: 'runtime-tour', version: '1.0.0' })
    .tool('to_fahrenheit', { description: 'Converts a temperature from Celsius to Fahrenheit', input, output }, ({ celsius }) => ({
      fahrenheit: (celsius * 9) / 5 + 32,
    }))
    .resource('weather://cities', { mimeType: 'text/plain' }, () => 'Oslo\nParis')
    .prompt('plan', { arguments: args }, ({ city }) => `Plan a day in ${city}`)
    .build();
  const handler = mcpFetchHandler(server, { allowedHosts: LOOPBACK });
  return { fetch: handler, close: () => handler.close() };
}

/** A code-first tool whose input is a Valibot schema: advertised through `@valibot/to-json-schema`, imported by name. */
async function valibot(): Promise<Serving> {
  const server = await mcpServer({ name: 'runtime-valibot', version: '1.0.0' })
    .tool('to_fahrenheit', { input: v.object({ celsius: v.number() }) }, ({ celsius }) => `${(celsius * 9) / 5 + 32}`)
    .build();
  const handler = mcpFetchHandler(server, { allowedHosts: LOOPBACK });
  return { fetch: handler, close: () => handler.close() };
}

function a2a(options: A2aHttpOptions): Serving {
  const never = { promise: new Promise<void>(() => {}) };
  const server = new A2aServer({ card: testCard({ streaming: true }), executor: scripted(never), log: () => {} });
  const ended = watchEndedStreams(server);
  const agent = a2aFetchHandler(server, options);
  return {
    fetch: async (request) => (new URL(request.url).pathname === '/_control/state' ? Response.json({ ended }) : agent(request)),
    close: () => {},
  };
}

export async function served(config: ServeConfig): Promise<Serving> {
  if (config.kind === 'mcp') return mcp(config.options);
  if (config.kind === 'a2a') return a2a(config.options);
  if (config.kind === 'valibot') return valibot();
  return tour(config.kind === 'tour' ? 'json' : 'zod');
}

export { readyLine } from './ready.ts';
