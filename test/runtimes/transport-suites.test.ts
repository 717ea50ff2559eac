/**
 * The MCP and A2A transport suites (test/adapters) on Bun, Deno and workerd: `mcpFetchHandler` in `Bun.serve`,
 * in `Deno.serve` and as a Worker on workerd (through miniflare, without compatibility flags), `a2aFetchHandler`
 * likewise, each server in a child process on 127.0.0.1 (launch.ts). Cases that need the server in the test's
 * process are left out by their trait (Traits.inProcess); runtime-state.test.ts covers cancellation, listen
 * streams and session GET streams through the child's test-only routes. What workerd cannot do is a trait too
 * (Traits.connectionHeader, seesClientLeave), each saying why. A runtime that cannot run
 * here is one skipped test naming why.
 */
import { it } from 'vitest';
import { runA2aTransportSuite } from '../adapters/a2a-transport-suite.ts';
import { runMcpTransportSuite } from '../adapters/mcp-transport-suite.ts';
import { a2aTarget, find, mcpTarget, RUNTIME_NAMES } from './launch.ts';

for (const name of RUNTIME_NAMES) {
  const found = find(name);
  if (!found.binary) {
    it.skip(`${found.label} cannot run here: ${found.reason}`, () => {});
    continue;
  }
  const server = { bun: 'in Bun.serve', deno: 'in Deno.serve', workerd: 'as a Worker' }[name];
  runMcpTransportSuite(`mcpFetchHandler ${server} (${found.label})`, mcpTarget(found));
  runA2aTransportSuite(`a2aFetchHandler ${server} (${found.label})`, a2aTarget(found));
}
