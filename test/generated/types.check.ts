/**
 * Type-level checks of the generated maps; compiled by `tsc` in `npm test`, never run. Each
 * `@ts-expect-error` line must fail to compile, so a too-loose type breaks the build.
 */
import type * as A2A from '../../generated/a2a-1.0/index.ts';
import type * as M24 from '../../generated/mcp-2024-11-05/index.ts';
import type * as M26 from '../../generated/mcp-2026-07-28/index.ts';

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

export const params: M26.Params<'tools/call'> = { name: 'add', arguments: { a: 1 }, _meta: meta };
// @ts-expect-error name must be a string
export const badParams: M26.Params<'tools/call'> = { name: 1, _meta: meta };
export const result: M26.Result<'tools/call'> = { content: [{ type: 'text', text: '5' }], resultType: 'complete' };
// @ts-expect-error a tools/list result needs tools, ttlMs and cacheScope
export const badList: M26.Result<'tools/list'> = { resultType: 'complete' };
export const base: M26.Result = { resultType: 'complete' };
export const oldParams: M24.Params<'tools/call'> = { name: 'add' };

// Handlers: tools/call may answer input_required; notifications return nothing.
export const handlers: M26.ServerHandlers<{ id: string }> = {
  'tools/call': (p, ctx) => (p.name === ctx.id ? { resultType: 'input_required', requestState: 's' } : { content: [], resultType: 'complete' }),
  'notifications/cancelled': () => {},
  // @ts-expect-error tools/list must return its result
  'tools/list': () => ({ resultType: 'complete' }),
};
export const clientHandlers: M26.ClientHandlers = {
  'roots/list': () => ({ roots: [], resultType: 'complete' }),
};

// Method name unions.
export const m: M26.ClientRequestMethod = 'tools/call';
// @ts-expect-error elicitation/create is sent by the server
export const notClient: M26.ClientRequestMethod = 'elicitation/create';
export const n: M26.ServerNotificationMethod = 'notifications/progress';

// A2A: streaming handlers return an async iterable; params are the request message.
export const a2aHandlers: A2A.ServerHandlers = {
  SendMessage: (p) => ({ message: { messageId: p.message.messageId, parts: [{ text: 'ok' }], role: 'ROLE_AGENT' } }),
  async *SendStreamingMessage() {
    yield { task: { id: 't', status: { state: 'TASK_STATE_WORKING' } } };
  },
};
export const send: A2A.MessageOf<'SendMessage'> = {
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
};
// @ts-expect-error the proto makes message REQUIRED
export const sendWithoutMessage: A2A.Params<'SendMessage'> = {};
// @ts-expect-error a Message needs its messageId, role and parts
export const partial: A2A.Message = { parts: [] };
