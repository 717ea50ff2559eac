/**
 * What a behaviour's thrown error becomes, on every way of writing a server (a catalog: spec file or code;
 * the handlers way): by default its message reaches the client as the TypeScript SDK v2 sends it (tools/call:
 * an `isError` result with the message as its text; resources/read, prompts/get, completion/complete: -32603
 * with the message, or a JsonRpcError's own code); with `thrownErrors: 'mask'`, as the Python SDK of the
 * recordings sends it (`Error executing tool <name>`, -32603 "Internal error"), except a PublicError's
 * message; and every thrown error is logged once, with its stack, whatever the client got.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonRpcError, type JsonObject } from '../../runtime/jsonrpc/message.ts';
import { catalogServerOptions, type CatalogDefinition } from '../../runtime/mcp/catalog/catalog.ts';
import { PublicError } from '../../runtime/mcp/server/thrown.ts';
import { requireRevision } from '../../runtime/mcp/revisions.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import type { McpHandlers, McpServerOptions } from '../../runtime/mcp/server/types.ts';
import { handshake, mcpPair, withMeta } from '../helpers/mcp-pair.ts';

// Both eras' packages loaded before the first request, which would otherwise wait for them.
beforeAll(async () => {
  await Promise.all([requireRevision('2025-11-25'), requireRevision('2026-07-28')]);
});

const OBJECT = { type: 'object' } as const;
const ANY = { input: () => true };

/** A catalog whose every behaviour throws what `thrown` makes. */
function catalog(thrown: () => unknown, thrownErrors?: 'show' | 'mask'): CatalogDefinition {
  const fail = () => {
    throw thrown();
  };
  return {
    spec: {
      serverInfo: { name: 'thrower', version: '1.0.0' },
      capabilities: { handshake: { tools: {}, resources: {}, prompts: {}, completions: {} }, stateless: { tools: {}, resources: {}, prompts: {} } },
      ...(thrownErrors ? { thrownErrors } : {}),
      tools: [{ name: 'delete_note', inputSchema: OBJECT }],
      resources: [{ uri: 'notes://index', name: 'index' }],
      resourceTemplates: [{ uriTemplate: 'notes://note/{id}', name: 'note' }],
      prompts: [{ name: 'summarise' }],
    },
    behaviours: {
      tools: { delete_note: fail },
      resources: { 'notes://index': fail },
      resourceTemplates: { 'notes://note/{id}': fail },
      prompts: { summarise: fail },
      complete: fail,
    },
    validators: { delete_note: ANY },
  };
}

const CALLS: [string, string, JsonObject][] = [
  ['a tool', 'tools/call', { name: 'delete_note', arguments: { id: 'nope' } }],
  ['a resource', 'resources/read', { uri: 'notes://index' }],
  ['a resource template', 'resources/read', { uri: 'notes://note/nope' }],
  ['a prompt', 'prompts/get', { name: 'summarise' }],
  ['a completion', 'completion/complete', { ref: { type: 'ref/prompt', name: 'summarise' }, argument: { name: 'id', value: 'n' } }],
];

/** The answer to `method` (handshake era), and what the server logged meanwhile. */
async function answer(options: McpServerOptions, method: string, params: JsonObject): Promise<{ response: JsonObject; logged: string[] }> {
  const logged: string[] = [];
  const pair = mcpPair(new McpServer({ ...options, log: (line) => logged.push(line) }));
  await handshake(pair);
  const { response } = await pair.request(method, params, 1);
  await pair.close();
  return { response, logged };
}

const toolText = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

describe('a thrown Error reaches the client with its message (the default: the TypeScript SDK v2)', () => {
  const def = catalog(() => new Error('no note with id nope'));
  it.each(CALLS)('%s', async (_what, method, params) => {
    const { response, logged } = await answer(catalogServerOptions(def), method, params);
    if (method === 'tools/call') expect(response['result']).toEqual(toolText('no note with id nope'));
    else expect(response['error']).toEqual({ code: -32603, message: 'no note with id nope' });
    // Logged once, with the stack (the line of this file that made the error).
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(new RegExp(`^request ${method.replace('/', '\\/')} .*failed: Error: no note with id nope\\n\\s+at `));
    expect(logged[0]).toContain('thrown-errors.test.ts');
  });

  it('a JsonRpcError keeps its own code, message and data, and is not logged (a protocol answer the behaviour chose)', async () => {
    const coded = catalog(() => new JsonRpcError(-32002, 'Resource not found', { uri: 'notes://index' }));
    const { response, logged } = await answer(catalogServerOptions(coded), 'resources/read', { uri: 'notes://index' });
    expect(response['error']).toEqual({ code: -32002, message: 'Resource not found', data: { uri: 'notes://index' } });
    expect(logged).toEqual([]);
  });

  it('in the 2026-07-28 era too', async () => {
    const pair = mcpPair(new McpServer({ ...catalogServerOptions(def), log: () => {} }));
    const tool = await pair.request('tools/call', withMeta({ name: 'delete_note', arguments: {} }));
    expect(tool.response['result']).toMatchObject(toolText('no note with id nope'));
    const read = await pair.request('resources/read', withMeta({ uri: 'notes://index' }));
    expect(read.response['error']).toEqual({ code: -32603, message: 'no note with id nope' });
    await pair.close();
  });

  it('a thrown value that is not an Error is sent as its text', async () => {
    const { response } = await answer(catalogServerOptions(catalog(() => 'plain text')), 'tools/call', { name: 'delete_note' });
    expect(response['result']).toEqual(toolText('plain text'));
  });
});

describe("thrownErrors: 'mask' (the Python SDK of the recordings)", () => {
  const def = catalog(() => new Error('disk full'), 'mask');
  it.each(CALLS)('%s: the message is not sent, and is logged once', async (_what, method, params) => {
    const { response, logged } = await answer(catalogServerOptions(def), method, params);
    if (method === 'tools/call') expect(response['result']).toEqual(toolText('Error executing tool delete_note'));
    else expect(response['error']).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(response)).not.toContain('disk full');
    expect(logged).toEqual([expect.stringMatching(/failed: Error: disk full\n\s+at /)]);
  });

  it.each(CALLS)("%s: a PublicError's message is sent all the same", async (_what, method, params) => {
    const shown = catalog(() => new PublicError('no note with id nope'), 'mask');
    const { response, logged } = await answer(catalogServerOptions(shown), method, params);
    if (method === 'tools/call') expect(response['result']).toEqual(toolText('no note with id nope'));
    else expect(response['error']).toEqual({ code: -32603, message: 'no note with id nope' });
    expect(logged).toHaveLength(1);
  });

  it('the server option overrides the spec', async () => {
    const { response } = await answer(catalogServerOptions(def, { thrownErrors: 'show' }), 'tools/call', { name: 'delete_note' });
    expect(response['result']).toEqual(toolText('disk full'));
  });
});

describe('the handlers way (new McpServer({ handlers })) follows the same rule', () => {
  const handlers: McpHandlers = {
    'tools/call': () => {
      throw new Error('no note with id nope');
    },
    'resources/read': () => {
      throw new Error('the disk is gone');
    },
  };
  const options = (thrownErrors?: 'show' | 'mask'): McpServerOptions => ({
    serverInfo: { name: 'h', version: '1' },
    capabilities: { handshake: { tools: {}, resources: {} }, stateless: { tools: {}, resources: {} } },
    handlers,
    ...(thrownErrors ? { thrownErrors } : {}),
  });

  it('a plain Error in tools/call is an isError result with its message; elsewhere -32603 with it', async () => {
    const tool = await answer(options(), 'tools/call', { name: 'delete_note' });
    expect(tool.response['result']).toEqual(toolText('no note with id nope'));
    expect(tool.logged).toEqual([expect.stringMatching(/^request tools\/call delete_note failed: Error: no note with id nope\n\s+at /)]);
    const read = await answer(options(), 'resources/read', { uri: 'a://b' });
    expect(read.response['error']).toEqual({ code: -32603, message: 'the disk is gone' });
    expect(read.logged).toEqual([expect.stringMatching(/^request resources\/read a:\/\/b failed: Error: the disk is gone\n\s+at /)]);
  });

  it("masked with thrownErrors: 'mask'", async () => {
    expect((await answer(options('mask'), 'tools/call', { name: 'delete_note' })).response['result']).toEqual(
      toolText('Error executing tool delete_note'),
    );
    expect((await answer(options('mask'), 'resources/read', { uri: 'a://b' })).response['error']).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });
});

describe('the default log', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is stderr, never stdout', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write');
    const pair = mcpPair(new McpServer(catalogServerOptions(catalog(() => new Error('no note with id nope')))));
    await handshake(pair);
    await pair.request('tools/call', { name: 'delete_note' }, 1);
    await pair.close();
    const written = err.mock.calls.map(([chunk]) => String(chunk)).filter((s) => s.includes('no note with id nope'));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/failed: Error: no note with id nope\n\s+at /);
    expect(out.mock.calls.map(([chunk]) => String(chunk)).filter((s) => s.includes('no note'))).toEqual([]);
  });
});
