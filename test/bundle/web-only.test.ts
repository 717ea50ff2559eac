/**
 * @module test/bundle/web-only — the Worker bundles of test/bundle/fixtures run where there are Web APIs only:
 * a `node:vm` context with fetch's classes, streams, TextEncoder, Web Crypto, timers and console, and no
 * `process`, `Buffer`, `require`, `setImmediate` or `import.meta`. As in a Cloudflare Worker, timers and
 * random values are refused while the bundle's top level runs (its "global scope", where the fixtures make
 * their handler), and allowed while a request is served. Then each answers requests through its `fetch`.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundleWorker } from '../../bench/lib/worker-bundle.ts';

type Fetch = (request: Request) => Promise<Response>;

/** Runs an iife bundle (global `worker`) in a context with Web APIs only; returns its default export's fetch. */
function runWebOnly(code: string): Fetch {
  let globalScope = true;
  const refuse =
    <F extends (...args: never[]) => unknown>(name: string, f: F) =>
    (...args: Parameters<F>) => {
      if (globalScope) throw new Error(`Disallowed operation called within global scope: ${name}`);
      return f(...args);
    };
  const webCrypto = {
    subtle: crypto.subtle,
    getRandomValues: refuse('crypto.getRandomValues', <T extends ArrayBufferView>(a: T) => crypto.getRandomValues(a as never) as T),
    randomUUID: refuse('crypto.randomUUID', () => crypto.randomUUID()),
  };
  const globals = {
    Request,
    Response,
    Headers,
    ReadableStream,
    WritableStream,
    TransformStream,
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    Event,
    EventTarget,
    DOMException,
    atob,
    btoa,
    console,
    queueMicrotask,
    structuredClone,
    crypto: webCrypto,
    setTimeout: refuse('setTimeout', setTimeout),
    clearTimeout,
    setInterval: refuse('setInterval', setInterval),
    clearInterval,
  };
  const context: Record<string, unknown> = { ...globals };
  context['globalThis'] = context;
  context['self'] = context;
  const worker = runInNewContext(`${code}\nworker;`, context, { filename: 'worker.js' }) as { default: { fetch: Fetch } };
  globalScope = false;
  return (request) => worker.default.fetch(request);
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

/** The JSON-RPC message of a response: its JSON body, or the first `data:` of its SSE body. */
async function message(response: Response): Promise<Record<string, any>> {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return JSON.parse(text);
  return JSON.parse(/^data: (.*)$/m.exec(text)![1]!);
}

const MCP_URL = 'https://weather.example/mcp';
// 2026-07-28 requests carry their revision in `_meta` and the MCP-Protocol-Version header, and the method
// (and a tool's name) in Mcp-Method and Mcp-Name (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports).
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'web-only', version: '1.0.0' },
};
const stateless = (method: string, params: Record<string, unknown>, name?: string) =>
  post(
    MCP_URL,
    { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: META } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
  );

describe('Worker bundles run with Web APIs only', () => {
  it('MCP serving 2026-07-28 only: imports, then answers server/discover, tools/call and, for initialize, the error of a revision not served', async () => {
    const bundle = await bundleWorker('test/bundle/fixtures/mcp-worker.ts', { served: ['2026-07-28'], format: 'iife' });
    const fetch = runWebOnly([...bundle.files.values()][0]!);

    const discover = await message(await fetch(stateless('server/discover', {})));
    expect(discover['result']).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });

    const call = await fetch(stateless('tools/call', { name: 'to_fahrenheit', arguments: { celsius: 100 } }, 'to_fahrenheit'));
    expect(call.status).toBe(200);
    // 100 °C is 212 °F; the tool's outputSchema gives structured content (server.yaml).
    expect((await message(call))['result']).toMatchObject({ resultType: 'complete', structuredContent: { fahrenheit: 212 } });

    // A revision the server does not serve: refused by version (-32022), its package never asked for.
    const old = await fetch(
      post(
        MCP_URL,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } },
        {
          'mcp-protocol-version': '2025-11-25',
          'mcp-method': 'tools/list',
        },
      ),
    );
    expect(old.status).toBe(400);
    expect((await message(old))['error']).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } });

    // initialize (handshake era): no handshake revision is served, so the lifecycle page's -32602.
    const init = await message(
      await fetch(
        post(MCP_URL, {
          jsonrpc: '2.0',
          id: 3,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'web-only', version: '1.0.0' } },
        }),
      ),
    );
    expect(init['error']).toMatchObject({
      code: -32602,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'], requested: '2025-11-25' },
    });
  });

  it('A2A: imports, then answers the agent card and SendMessage', async () => {
    const bundle = await bundleWorker('test/bundle/fixtures/a2a-worker.ts', { format: 'iife' });
    const fetch = runWebOnly([...bundle.files.values()][0]!);

    const card = await fetch(new Request('https://echo.example/.well-known/agent-card.json'));
    expect(card.status).toBe(200);
    expect(await card.json()).toMatchObject({ name: 'Echo', version: '1.0.0' });

    const sent = await fetch(
      post(
        'https://echo.example/a2a',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
        },
        { 'a2a-version': '1.0' },
      ),
    );
    const answer = (await message(sent))['result'];
    expect(JSON.stringify(answer)).toContain('hello');
  });
});
