/**
 * The code-first path (runtime/mcp/catalog/code-first.ts) over stdio, in both eras: the two-tool server of
 * test/fixtures/code-first-weather.ts as a child process, its wire checked line by line. Expected values are
 * the MCP schema's shapes written out (tools/list lists each tool's schemas as given; structured content and
 * its JSON text; a thrown Error is an isError result with its message; arguments failing the input schema an
 * isError result naming each JSON pointer and what was allowed), and the 2026-07-28 envelope the runtime adds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../runtime/jsonrpc/message.ts';
import { CAPS, PV, SERVER_INFO_KEY } from '../helpers/mcp-pair.ts';
import { startServer, type StdioServer } from '../helpers/stdio-server.ts';

const COMMAND = [process.execPath, '--import', 'tsx', 'test/fixtures/code-first-weather.ts'];
const SERVER_INFO = { name: 'weather', version: '1.0.0' };

const FAHRENHEIT_TOOL = {
  name: 'to_fahrenheit',
  description: 'Converts a temperature from Celsius to Fahrenheit',
  inputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
  outputSchema: { type: 'object', properties: { fahrenheit: { type: 'number' } }, required: ['fahrenheit'] },
};
const FORECAST_TOOL = {
  name: 'forecast',
  description: "Tomorrow's weather in a city",
  inputSchema: { type: 'object', properties: { city: { type: 'string', enum: ['oslo', 'paris', 'atlantis'] } }, required: ['city'] },
};

const servers: StdioServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.kill();
});

/** One request, its one response line parsed. */
async function ask(server: StdioServer, id: number, method: string, params: JsonObject): Promise<JsonObject> {
  server.sendJson({ jsonrpc: '2.0', id, method, params });
  const line = await server.nextLine();
  if (line.kind !== 'line') throw new Error(`no answer to ${method} (${line.kind}); stderr:\n${server.stderr()}`);
  return JSON.parse(line.line) as JsonObject;
}

interface Era {
  /** Starts the server and opens the session the era needs. */
  open(): Promise<StdioServer>;
  /** The params of a request in this era. */
  params(params: JsonObject): JsonObject;
  /** A result with the era's envelope (cacheable: tools/list). */
  result(result: JsonObject, cacheable?: boolean): JsonObject;
}

const handshake: Era = {
  async open() {
    const server = startServer({ command: COMMAND });
    servers.push(server);
    const init = await ask(server, 0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init['result']).toEqual({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: SERVER_INFO });
    server.sendJson({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return server;
  },
  params: (params) => params,
  result: (result) => result,
};
const stateless: Era = {
  async open() {
    const server = startServer({ command: COMMAND });
    servers.push(server);
    return server;
  },
  params: (params) => ({ ...params, _meta: { [PV]: '2026-07-28', [CAPS]: {} } }),
  result: (result, cacheable = false) => ({
    ...result,
    resultType: 'complete',
    ...(cacheable ? { ttlMs: 0, cacheScope: 'private' } : {}),
    _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
  }),
};

describe.each([
  ['handshake (2025-11-25)', handshake],
  ['2026-07-28', stateless],
] as const)('a code-first server on stdio, %s', (_name, era) => {
  it('lists both tools with their schemas, and answers each kind of call', async () => {
    const server = await era.open();
    const call = (id: number, name: string, args: JsonObject) => ask(server, id, 'tools/call', era.params({ name, arguments: args }));

    expect(await ask(server, 1, 'tools/list', era.params({}))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: era.result({ tools: [FAHRENHEIT_TOOL, FORECAST_TOOL] }, true),
    });
    // The value is the structured content; its canonical JSON is the text block.
    expect(await call(2, 'to_fahrenheit', { celsius: 100 })).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: era.result({ content: [{ type: 'text', text: '{"fahrenheit":212}' }], isError: false, structuredContent: { fahrenheit: 212 } }),
    });
    // Arguments the input schema refuses never reach the function: a tool execution error naming each JSON
    // pointer and what was allowed (the one rule of spec files, code and handlers).
    const invalid = (text: string) => era.result({ content: [{ type: 'text', text }], isError: true });
    expect(await call(3, 'to_fahrenheit', { celsius: 'hot' })).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: invalid('Error executing tool to_fahrenheit: invalid arguments: /celsius must be number'),
    });
    expect(await call(4, 'forecast', {})).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: invalid("Error executing tool forecast: invalid arguments: (root) must have required property 'city'"),
    });
    expect(await call(7, 'forecast', { city: 'rome' })).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: invalid(
        'Error executing tool forecast: invalid arguments: /city must be equal to one of the allowed values: "oslo", "paris", "atlantis"',
      ),
    });
    // Text tools: the value as one text block.
    expect(await call(5, 'forecast', { city: 'oslo' })).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: era.result({ content: [{ type: 'text', text: 'Snow, -3 °C' }], isError: false }),
    });
    // A thrown Error is a tool execution error: an isError result with its message, logged on stderr with its stack.
    expect(await call(6, 'forecast', { city: 'atlantis' })).toEqual({
      jsonrpc: '2.0',
      id: 6,
      result: era.result({ content: [{ type: 'text', text: 'no forecast for atlantis' }], isError: true }),
    });
    const exit = await server.close();
    expect(exit).toMatchObject({ code: 0, timedOut: false, rest: [] });
    expect(server.stderr()).toMatch(/request tools\/call forecast failed: Error: no forecast for atlantis\n\s+at .*code-first-weather\.ts/);
  });
});
