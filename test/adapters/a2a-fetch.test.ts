/**
 * The A2A transport suite on the fetch handler: through the test's node→fetch bridge and mounted in Hono on
 * @hono/node-server (`app.all('*', (c) => agent(c.req.raw))`).
 */
import { expect, it } from 'vitest';
import { a2aFetchHandler } from '../../runtime/a2a/http-adapters.ts';
import type { A2aHttpOptions } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';
import { testCard } from '../helpers/a2a-server.ts';
import { runA2aTransportSuite } from './a2a-transport-suite.ts';
import { A2A_TARGETS } from './targets.ts';

for (const name of ['a2aFetchHandler through a node→fetch bridge', 'a2aFetchHandler in Hono on @hono/node-server'])
  runA2aTransportSuite(name, A2A_TARGETS[name]!);

it('refuses the node-only routes option with a one-line error', () => {
  const server = new A2aServer({ card: testCard(), executor: { execute: async () => {} }, log: () => {} });
  // Options typed for the node adapters, as a caller moving from listenA2aHttp would pass them.
  const options: A2aHttpOptions = { routes: () => false };
  expect(() => a2aFetchHandler(server, options)).toThrow(
    'a2aFetchHandler: options.routes takes node req/res; serve extra routes in front of the fetch handler',
  );
});

it('refuses an agent whose own http.routes take node req/res, with a one-line error', () => {
  const server = new A2aServer({ card: testCard(), executor: { execute: async () => {} }, http: { routes: () => false }, log: () => {} });
  expect(() => a2aFetchHandler(server)).toThrow(
    "a2aFetchHandler: the agent's http.routes take node req/res; serve them in front of the fetch handler",
  );
});
