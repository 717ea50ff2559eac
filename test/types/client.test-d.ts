/**
 * Type-level tests of the typed client (runtime/mcp/client/client.ts `McpClient.request`, `ServerRequestHandlers`):
 * compiled by `tsc` in `npm run typecheck`, never run. Each `@ts-expect-error` line must fail to compile.
 */
import type { CallResult, ElicitResult } from '@wiregen/mcp-2026-07-28';
import type { McpClient, ServerRequestHandlers } from '../../runtime/mcp/client/client.ts';
import { expectType, type Equal } from './equal.ts';

declare const client: McpClient;

export async function calls(): Promise<void> {
  // Params as the caller writes them (no _meta), the result typed by method, the envelope optional.
  const called = await client.request('tools/call', { name: 'add', arguments: { a: 1 } });
  expectType<Equal<typeof called, CallResult<'tools/call'>>>(true);
  expectType<Equal<typeof called.resultType, string | undefined>>(true);
  const listed = await client.request('tools/list');
  expectType<Equal<typeof listed.ttlMs, number | undefined>>(true);
  // Per-call options: progress callback, signal, timeout.
  await client.request(
    'resources/read',
    { uri: 'file:///a' },
    { onProgress: (p, total, message) => [p, total, message], timeoutMs: 5, signal: AbortSignal.timeout(5) },
  );
  // A caller may still pass _meta keys of its own (partial).
  await client.request('tools/list', { _meta: { progressToken: 'p' } });

  // @ts-expect-error tools/call needs the tool's name
  await client.request('tools/call', {});
  // @ts-expect-error tools/call params are required
  await client.request('tools/call');
  // @ts-expect-error elicitation/create is a request the server sends, not the client
  await client.request('elicitation/create', { message: 'x', requestedSchema: { type: 'object', properties: {} } });
  // @ts-expect-error resources/read takes a uri, not a name
  await client.request('resources/read', { name: 'a' });
  // @ts-expect-error onProgress gets numbers and a message
  await client.request('tools/list', {}, { onProgress: (p: string) => p });
}

// The client's answers to the server are typed by method.
export const handlers: ServerRequestHandlers = {
  'elicitation/create': (params) => {
    expectType<Equal<typeof params.message, string>>(true);
    return { action: 'accept' } satisfies ElicitResult;
  },
  'roots/list': () => ({ roots: [{ uri: 'file:///tmp' }] }),
  // @ts-expect-error a sampling answer needs its model, role and content
  'sampling/createMessage': () => ({ model: 'm' }),
};
// @ts-expect-error tools/call is not a server-to-client request
export const notServerRequest: ServerRequestHandlers = { 'tools/call': () => ({ content: [] }) };
