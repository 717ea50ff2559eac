/**
 * The official MCP clients (`@modelcontextprotocol/sdk` 1.32.2; the v2 `@modelcontextprotocol/client` 2.4.0 in
 * legacy and pinned-2026-07-28 modes) over stdio against code-first servers whose schemas are Zod's, Valibot's
 * and ArkType's (test/fixtures/code-first-standard.ts): the tour of tour.ts calls each tool with arguments
 * sampled from its derived inputSchema (the clients check its structuredContent against the derived
 * outputSchema), answers the form elicitation with the form's defaults, and gets the prompt. Every call is `ok`.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/project.ts';
import { elicitationAnswer, tour, type CallTool, type OfficialClient } from './tour.ts';

const INFO = { name: 'wiregen-interop', version: '1.0.0' };
const CAPABILITIES = { capabilities: { elicitation: { form: {} } } };
const server = (library: string) => ({
  command: process.execPath,
  args: ['--import', 'tsx', 'test/fixtures/code-first-standard.ts', library],
  cwd: ROOT,
  stderr: 'pipe' as const,
});

async function connect(flavour: string, library: string): Promise<{ client: OfficialClient; callTool: CallTool; close: () => Promise<void> }> {
  if (flavour === 'sdk-1.32.2') {
    const c = new V1Client(INFO, CAPABILITIES);
    c.setRequestHandler(ElicitRequestSchema, (r) => elicitationAnswer(r.params) as never); // an ElicitResult
    await c.connect(new V1Stdio(server(library)));
    return {
      client: c as unknown as OfficialClient, // its methods' parameter types are the SDK's zod-inferred ones, wider than the tour's
      callTool: (p, o) => c.callTool(p, undefined, o) as Promise<Record<string, unknown>>,
      close: () => c.close(),
    };
  }
  const mode = flavour === 'v2-legacy' ? 'legacy' : { pin: '2026-07-28' as const };
  const c = new V2Client(INFO, { ...CAPABILITIES, versionNegotiation: { mode } });
  c.setRequestHandler('elicitation/create', (r) => elicitationAnswer(r.params) as never);
  await c.connect(new V2Stdio(server(library)));
  return { client: c as unknown as OfficialClient, callTool: (p, o) => c.callTool(p, o) as Promise<Record<string, unknown>>, close: () => c.close() };
}

describe.each(['sdk-1.32.2', 'v2-legacy', 'v2-pinned'])('%s over stdio', (flavour) => {
  it.each(['zod', 'valibot', 'arktype'])(
    'a code-first server written with %s: every tool and prompt ok',
    async (library) => {
      const c = await connect(flavour, library);
      try {
        const seen = await tour(c.client, c.callTool);
        expect(seen.tools).toEqual({ save: 'ok', rsvp: 'ok' });
        expect(seen.prompts).toEqual({ summary: 'ok' });
      } finally {
        await c.close();
      }
    },
    60_000,
  );
});
