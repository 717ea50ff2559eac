/**
 * @module test/adapters/mcp-fixture — the MCP server the transport suite serves, and the expected answers it
 * shares with test/http (each taken from the test there that pins it: admission.test.ts, headers.test.ts,
 * responses.test.ts, sessions.test.ts, streams.test.ts, bad-input.test.ts).
 */
import { JsonRpcError, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { InputRequest, McpHandlers, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { SERVER_INFO } from '../helpers/mcp-pair.ts';

export const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

export const POST_ONLY = rpcError(null, -32600, 'Streamable HTTP accepts POST only');
export const ELICIT: InputRequest<'elicitation/create'> = {
  method: 'elicitation/create',
  params: { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};
/** The handshake-era initialize params of sessions.test.ts. */
export const INIT = { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'c', version: '1' } };

export const rpc = (id: number | string | undefined, method: string, params?: JsonObject) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params ? { params } : {}) });

export interface Fixture {
  readonly server: McpServer;
  /** The messages of `ctx.signal` aborts, in order. */
  readonly aborted: string[];
  /** Resolves once the `wait` tool has started. */
  readonly waiting: Promise<void>;
}

/**
 * tools/call: `progress` (two progress notifications and a log, as responses.test.ts), `wait` (runs until
 * aborted), `ask` (an elicitation, handshake era), `poll` (ends its stream mid-call), `change` (announces a
 * tools change), anything else answers
 * `called <name>`. listChanged tools in both eras, logging in 2026-07-28.
 */
export function mcpFixture(extra: Partial<McpServerOptions> = {}): Fixture {
  const aborted: string[] = [];
  let started: () => void = () => {};
  const waiting = new Promise<void>((resolve) => (started = resolve));
  const tools: Record<string, NonNullable<McpHandlers['tools/call']>> = {
    progress: (_p, ctx) => {
      ctx.progress(1, 3, 'one');
      ctx.progress(2, 3);
      ctx.log('info', 'halfway', 'worker');
      ctx.log('debug', 'too detailed');
      return { content: [{ type: 'text', text: 'done' }] };
    },
    wait: (_p, ctx) => {
      started();
      ctx.progress(0);
      return new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          aborted.push((ctx.signal.reason as Error).message);
          resolve({ content: [{ type: 'text', text: 'late' }] });
        }),
      );
    },
    ask: async (_p, ctx) => {
      const answer = await ctx.input('name', ELICIT);
      return { content: [{ type: 'text', text: `Hello ${String(answer.content?.['name'])}` }] };
    },
    fail: () => {
      throw new JsonRpcError(-32602, 'Bad widget');
    },
    // Resumability (mcp-suite-resume.ts): progress 1, the stream ended (SEP-1699 polling), progress 2 a moment later.
    poll: async (_p, ctx) => {
      ctx.progress(1);
      ctx.closeStream();
      await new Promise((resolve) => setTimeout(resolve, 50));
      ctx.progress(2);
      return { content: [{ type: 'text', text: ctx.signal.aborted ? 'aborted' : 'polled' }] };
    },
  };
  const server = new McpServer({
    serverInfo: SERVER_INFO,
    capabilities: { handshake: { tools: { listChanged: true } }, stateless: { tools: { listChanged: true }, logging: {} } },
    handlers: {
      'tools/list': () => ({ tools: [] }),
      'tools/call': (params, ctx) => {
        const tool = tools[params.name];
        if (tool) return tool(params, ctx);
        if (params['name'] === 'change') ctx.listChanged('tools');
        return { content: [{ type: 'text', text: `called ${String(params['name'])}` }] };
      },
    },
    log: () => {},
    ...extra,
  });
  return { server, aborted, waiting };
}
