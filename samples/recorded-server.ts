/**
 * @module samples/recorded-server — the behaviours of the recorded server (the official MCP Python SDK's
 * MCPServer example). Its catalog (names, descriptions, schemas) is schemas/samples/recorded-server.yaml.
 * Each function serves both eras: ctx.input sends elicitation or sampling to the client in the handshake
 * era and asks for it with input_required in 2026-07-28.
 */
import type { ElicitRequestFormParams } from '../generated/mcp-2026-07-28/index.ts';
import { defineServer } from '../generated/samples/recorded-server/index.ts';
import { ErrorCode, JsonRpcError } from '../runtime/jsonrpc/message.ts';

/**
 * The largest `n` count counts to. Its inputSchema is the one the official SDK listed (no bounds, and
 * tools/list is recorded), so the bound is here: a larger, negative or fractional n is answered -32602
 * naming it (a plain Error would become the SDK's "Error executing tool count", which names nothing).
 */
export const MAX_COUNT = 10_000;

const README = '# Demo\nA tiny project.';
const resources = { 'docs://readme': () => README };
const CONFIRM_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { confirm: { type: 'boolean' } },
  required: ['confirm'],
};

export default defineServer({
  tools: {
    add: ({ a, b }) => a + b,
    read_doc: ({ uri }) => {
      const read = (resources as Record<string, (() => string) | undefined>)[uri];
      if (!read) throw new Error(`Unknown resource: ${uri}`);
      return read();
    },
    count: async ({ n }, ctx) => {
      if (!Number.isInteger(n) || n < 0 || n > MAX_COUNT)
        throw new JsonRpcError(ErrorCode.InvalidParams, `count: n must be an integer from 0 to ${MAX_COUNT}`);
      for (let i = 1; i <= n; i++) {
        ctx.progress(i, n);
        // A step at a time: a ping or a cancellation behind a long count is served in between.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (ctx.signal.aborted) return `stopped at ${i}`;
      }
      return `counted to ${n}`;
    },
    delete_file: async ({ path }, ctx) => {
      const answer = await ctx.input('confirm', {
        method: 'elicitation/create',
        params: { mode: 'form', message: `Delete ${path}?`, requestedSchema: CONFIRM_SCHEMA },
      });
      const ok = answer.action === 'accept' && Boolean(answer.content?.['confirm']);
      return ok ? `deleted ${path}` : `kept ${path}`;
    },
    summarise: async ({ text }, ctx) => {
      const answer = await ctx.input('summary', {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${text}` } }], maxTokens: 50 },
      });
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return content?.type === 'text' ? content.text : '?';
    },
    fail: ({ reason }) => {
      throw new Error(reason);
    },
  },
  resources,
  prompts: { review: ({ code }) => `Please review:\n${code}` },
});
