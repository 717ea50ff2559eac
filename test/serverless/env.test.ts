/**
 * @module test/serverless/env — configuration from a platform's environment (runtime/platform/env.ts `fromEnv`,
 * runtime/mcp/worker.ts `mcpWorker`) on Node: the documented bindings decoded, malformed ones refused in one line
 * naming the binding, the server made once per isolate on its first request, and the same helper fed a
 * process.env-like object (as Deno.env.toObject() and Bun.env are).
 */
import { describe, expect, it } from 'vitest';
import { EnvBindingError, ENV_BINDINGS, fromEnv } from '../../runtime/platform/env.ts';
import { mcpWorker } from '../../runtime/mcp/worker.ts';
import { McpServer } from '../../runtime/mcp/server/server.ts';
import { statelessBody, statelessHeaders } from '../helpers/http-client.ts';

const BYTES = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
// base64 and base64url of BYTES, computed by Node's Buffer (a reference outside the module under test).
const B64 = Buffer.from(BYTES).toString('base64');
const B64URL = Buffer.from(BYTES).toString('base64url');

describe('fromEnv', () => {
  it('reads nothing from an empty environment (the server defaults apply)', () => {
    expect(fromEnv({})).toEqual({});
    expect(fromEnv({ MCP_REQUEST_STATE_SECRET: '', MCP_ALLOWED_HOSTS: '' })).toEqual({});
  });

  it('decodes a base64 or base64url secret of 32 bytes, and splits the hosts list', () => {
    expect(fromEnv({ MCP_REQUEST_STATE_SECRET: B64 }).requestStateSecret).toEqual(BYTES);
    expect(fromEnv({ MCP_REQUEST_STATE_SECRET: ` ${B64URL}\n` }).requestStateSecret).toEqual(BYTES);
    expect(fromEnv({ MCP_ALLOWED_HOSTS: 'mcp.example.com, MCP.example.net ,[::1]' }).allowedHosts).toEqual([
      'mcp.example.com',
      'mcp.example.net',
      '[::1]',
    ]);
    expect(ENV_BINDINGS).toEqual({ requestStateSecret: 'MCP_REQUEST_STATE_SECRET', allowedHosts: 'MCP_ALLOWED_HOSTS' });
  });

  it('refuses a malformed binding in one line naming it', () => {
    const refusal = (env: Record<string, unknown>) => {
      try {
        fromEnv(env);
      } catch (err) {
        expect(err).toBeInstanceOf(EnvBindingError);
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ MCP_REQUEST_STATE_SECRET: Buffer.alloc(16).toString('base64') })).toBe(
      'MCP_REQUEST_STATE_SECRET: decodes to 16 bytes, expected 32 (make one with `openssl rand -base64 32`)',
    );
    expect(refusal({ MCP_REQUEST_STATE_SECRET: 'not base64!' })).toBe(
      'MCP_REQUEST_STATE_SECRET: not base64 (make one with `openssl rand -base64 32`)',
    );
    expect(refusal({ MCP_REQUEST_STATE_SECRET: 42 })).toBe('MCP_REQUEST_STATE_SECRET: expected a text binding (secret or var), got number');
    expect(refusal({ MCP_ALLOWED_HOSTS: 'a.example,,b.example' })).toBe(
      'MCP_ALLOWED_HOSTS: "" is not a host name (expected e.g. "mcp.example.com,mcp.example.net")',
    );
    expect(refusal({ MCP_ALLOWED_HOSTS: 'https://a.example' })).toMatch(/^MCP_ALLOWED_HOSTS: "https:\/\/a.example" is not a host name/);
    for (const message of [refusal({ MCP_REQUEST_STATE_SECRET: 'x' }), refusal({ MCP_ALLOWED_HOSTS: ' ' })]) expect(message).not.toContain('\n');
  });
});

describe('mcpWorker on Node', () => {
  const request = (host: string) =>
    new Request(`http://${host}/mcp`, {
      method: 'POST',
      headers: statelessHeaders('tools/list'),
      body: statelessBody(1, 'tools/list'),
    });

  it('makes the server once, on the first request, with the secret and hosts of a process.env-like object', async () => {
    const made: (Uint8Array | undefined)[] = [];
    const logs: string[] = [];
    const worker = mcpWorker((_env, config) => {
      made.push(config.requestStateSecret);
      return new McpServer({
        ...config,
        serverInfo: { name: 'env', version: '1.0.0' },
        supportedVersions: ['2026-07-28'],
        capabilities: { handshake: {}, stateless: { tools: {} } },
        handlers: { 'tools/list': () => ({ tools: [] }) },
        log: (line) => logs.push(line),
      });
    });
    expect(made).toEqual([]);
    const env = { ...process.env, MCP_REQUEST_STATE_SECRET: B64, MCP_ALLOWED_HOSTS: 'mcp.example' };
    expect((await worker.fetch(request('mcp.example'), env)).status).toBe(200);
    // The DNS-rebinding Host check (transports page, "Security Warning"): another Host is 403.
    expect((await worker.fetch(request('rebound.example'), env)).status).toBe(403);
    expect(made).toEqual([BYTES]);
    expect(logs).toEqual([]);
  });

  it('logs once that the secret is missing, and answers 500 while a binding is malformed', async () => {
    const logs: string[] = [];
    const worker = mcpWorker(
      () =>
        new McpServer({
          serverInfo: { name: 'env', version: '1.0.0' },
          supportedVersions: ['2026-07-28'],
          capabilities: { handshake: {}, stateless: { tools: {} } },
          handlers: { 'tools/list': () => ({ tools: [] }) },
          log: (line) => logs.push(line),
        }),
      { http: () => ({ allowedHosts: ['mcp.example'] }) },
    );
    const bad = await worker.fetch(request('mcp.example'), { MCP_REQUEST_STATE_SECRET: 'short' });
    expect(bad.status).toBe(500);
    expect(await bad.json()).toMatchObject({ error: { code: -32603 } });
    expect((await worker.fetch(request('mcp.example'), {})).status).toBe(200);
    expect((await worker.fetch(request('mcp.example'), {})).status).toBe(200);
    expect(logs.filter((l) => l.startsWith('MCP_REQUEST_STATE_SECRET is not set'))).toHaveLength(1);
  });
});
