/**
 * The official MCP clients against `mcpFetchHandler` on Bun, Deno and workerd, over Streamable HTTP: SDK
 * 1.32.2's `Client` and the v2 `Client` 2.4.0 (legacy: 2025-11-25 with the handshake; auto: 2026-07-28), each
 * running the interop tour (test/interop/tour.ts) on a code-first server (served.ts `tour`; on workerd
 * `tour-zod`, its schemas Zod's, as ajv's `new Function` is refused there), then one tool called, the resource
 * read and the prompt got with known values: 100 °C is 212 °F (the tool's definition), the resource's text and
 * the prompt's text as the server defines them. And on workerd, a Valibot code-first server, which is not built
 * there: its converter is imported by name, and a Worker bundle has no module of that name.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { tour, type CallTool, type OfficialClient } from '../interop/tour.ts';
import { find, launch, RUNTIME_NAMES, type Child } from './launch.ts';

const INFO = { name: 'wiregen-runtimes', version: '1.0.0' };
type Flavour = 'sdk-1.32.2' | 'v2-legacy' | 'v2-auto';
const FLAVOURS: readonly Flavour[] = ['sdk-1.32.2', 'v2-legacy', 'v2-auto'];

interface Connected {
  readonly client: OfficialClient;
  readonly callTool: CallTool;
  readonly version: string | undefined;
  close(): Promise<void>;
}

async function connect(flavour: Flavour, url: URL): Promise<Connected> {
  if (flavour === 'sdk-1.32.2') {
    const c = new V1Client(INFO, { capabilities: {} });
    await c.connect(new V1Http(url));
    return {
      client: c as unknown as OfficialClient, // its methods' parameter types are the SDK's zod-inferred ones, wider than the tour's
      callTool: (p, o) => c.callTool(p, undefined, o) as Promise<Record<string, unknown>>,
      version: undefined, // SDK 1.x does not expose the negotiated revision
      close: () => c.close(),
    };
  }
  const c = new V2Client(INFO, { capabilities: {}, versionNegotiation: { mode: flavour === 'v2-legacy' ? 'legacy' : 'auto' } });
  await c.connect(new V2Http(url));
  return {
    client: c as unknown as OfficialClient, // as above
    callTool: (p, o) => c.callTool(p, o) as Promise<Record<string, unknown>>,
    version: c.getNegotiatedProtocolVersion(),
    close: () => c.close(),
  };
}

for (const name of RUNTIME_NAMES) {
  const found = find(name);
  if (!found.binary) {
    it.skip(`${found.label} cannot run here: ${found.reason}`, () => {});
    continue;
  }
  // On workerd the server's schemas are Zod's: ajv compiles JSON Schemas with `new Function`, which Workers refuse.
  const kind = name === 'workerd' ? 'tour-zod' : 'tour';
  describe(`official clients against mcpFetchHandler on ${found.label} (${kind})`, () => {
    const children: Child[] = [];
    afterEach(() => Promise.all(children.splice(0).map((c) => c.close())));

    it.each(FLAVOURS)('%s: the tour, a tool called, the resource read, the prompt got', async (flavour) => {
      const child = await launch(found, { kind });
      children.push(child);
      const c = await connect(flavour, new URL(`${child.origin}/mcp`));
      try {
        if (flavour === 'v2-auto') expect(c.version).toBe('2026-07-28');
        if (flavour === 'v2-legacy') expect(c.version).toBe('2025-11-25');
        const seen = await tour(c.client, c.callTool);
        expect([seen.tools, seen.resources, seen.prompts]).toEqual([{ to_fahrenheit: 'ok' }, { 'weather://cities': 'ok' }, { plan: 'ok' }]);
        const called = await c.callTool({ name: 'to_fahrenheit', arguments: { celsius: 100 } }, { onprogress: () => {}, timeout: 10_000 });
        expect(called['structuredContent']).toEqual({ fahrenheit: 212 });
        const read = await c.client.readResource({ uri: 'weather://cities' });
        expect(read.contents).toEqual([{ uri: 'weather://cities', mimeType: 'text/plain', text: 'Oslo\nParis' }]);
        const prompt = await c.client.getPrompt({ name: 'plan', arguments: { city: 'Oslo' } });
        expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Plan a day in Oslo' } }]);
      } finally {
        await c.close();
      }
    });
  });
}

describe.runIf(find('workerd').binary)('code-first servers on workerd', () => {
  const children: Child[] = [];
  afterEach(() => Promise.all(children.splice(0).map((c) => c.close())));

  it('a Valibot schema: its converter, imported by name, is no module of the Worker, so the server is not built', async () => {
    const child = await launch(find('workerd'), { kind: 'valibot' });
    children.push(child);
    const reply = await fetch(`${child.origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      }),
    });
    // The bundle is one module: workerd resolves an import() only among a Worker's modules (miniflare-worker.mjs).
    expect(reply.status).toBe(500);
    expect(await reply.text()).toContain(
      'DefinitionError: tool to_fahrenheit: /inputSchema: the valibot schema cannot be written as JSON Schema (input side): No such module "@valibot/to-json-schema"',
    );
  });
});
