/**
 * The OAuth client against a hostile authorization server (ours: a node:http server on 127.0.0.1 that is
 * protected resource, resource metadata, authorization server metadata and token endpoint at once, and
 * misbehaves in one place per case): documents and token responses that are oversized (streamed, or declared),
 * trickled, cut mid-body, nested 100,000 levels deep, or not UTF-8. Each ends promptly, the deep one parsed (it is
 * small) and every other with an AuthError: 'response-limit' naming the limit where one applies (OAuthClientOptions.responseLimits,
 * AUTH_RESPONSE_LIMIT_DEFAULTS), with no unhandled rejection and the oversized body not read to its end.
 * The client-credentials grant keeps a browser out of it; one case that behaves shows the harness works.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RESPONSE_LIMIT_DEFAULTS, AuthError, OAuthClient, type AuthResponseLimits } from '../../runtime/auth/index.ts';

const PROMPT_MS = 5_000;
/** Where each case misbehaves: the document it spoils, and how. */
type Mode = 'ok' | `${'resource' | 'as' | 'token'}-${'big' | 'declared' | 'trickle' | 'cut' | 'deep' | 'utf8'}`;

let mode: Mode = 'ok';
let base = '';
/** Bytes the server wrote of the last oversized body. */
let pumped = 0;
const sockets = new Set<Socket>();

function documentOf(path: string): Record<string, unknown> | undefined {
  if (path === '/.well-known/oauth-protected-resource/mcp') return { resource: `${base}/mcp`, authorization_servers: [base] };
  if (path === '/.well-known/oauth-authorization-server')
    return {
      issuer: base,
      token_endpoint: `${base}/token`,
      grant_types_supported: ['client_credentials'],
      code_challenge_methods_supported: ['S256'],
    };
  if (path === '/token') return { access_token: 'good-token', token_type: 'Bearer', expires_in: 3600 };
  return undefined;
}

const target = (path: string): string | undefined =>
  path.startsWith('/.well-known/oauth-protected-resource')
    ? 'resource'
    : path.startsWith('/.well-known/oauth-authorization-server')
      ? 'as'
      : path === '/token'
        ? 'token'
        : undefined;

/** Streams `head`, then 64 KiB of padding while the socket takes it (up to 64 MiB), then `tail`. */
function pump(res: ServerResponse, head: string, tail: string): void {
  res.write(head);
  pumped = 0;
  const chunk = 'x'.repeat(64 * 1024);
  const go = () => {
    while (!res.destroyed && pumped < 64 << 20) {
      pumped += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', go);
    }
    if (!res.destroyed) res.end(tail);
  };
  res.on('error', () => {});
  go();
}

function serve(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', base).pathname;
  req.resume();
  // A connection per request: a case's sockets are destroyed after it, and none must be reused by the next.
  res.setHeader('connection', 'close');
  if (path === '/mcp') {
    if (req.headers.authorization === 'Bearer good-token') return void res.end('served');
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
    return void res.end();
  }
  const doc = documentOf(path);
  if (!doc) return void res.writeHead(404).end();
  const text = JSON.stringify(doc);
  const json = { 'content-type': 'application/json' };
  const how = mode.startsWith(`${target(path)}-`) ? mode.slice(mode.indexOf('-') + 1) : 'ok';
  switch (how) {
    case 'big':
      res.writeHead(200, json);
      return pump(res, `${text.slice(0, -1)},"padding":"`, '"}');
    case 'declared':
      res.writeHead(200, { ...json, 'content-length': String(512 << 20) });
      return void res.write(text.slice(0, -1));
    case 'trickle': {
      res.writeHead(200, json);
      let i = 0;
      const timer = setInterval(() => (res.destroyed || i >= text.length ? clearInterval(timer) : res.write(text[i++]!)), 100);
      return void res.on('close', () => clearInterval(timer));
    }
    case 'cut':
      res.writeHead(200, json);
      res.write(text.slice(0, text.length >> 1));
      return void setTimeout(() => res.socket?.destroy(), 20);
    case 'deep':
      res.writeHead(200, json);
      return void res.end(`${text.slice(0, -1)},"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    case 'utf8':
      res.writeHead(200, json);
      return void res.end(Buffer.concat([Buffer.from(text.slice(0, -2)), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]));
    default:
      res.writeHead(200, json);
      return void res.end(text);
  }
}

const server = createServer(serve);
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.on('unhandledRejection', onRejection);
});
afterEach(() => {
  for (const s of sockets) s.destroy();
  expect(rejections).toEqual([]);
});
afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await new Promise((resolve) => server.close(resolve));
});

function client(limits?: AuthResponseLimits): OAuthClient {
  return new OAuthClient({
    grant: { type: 'client-credentials' },
    client: { client_id: 'hostile-test', client_secret: 'secret' },
    allowLoopbackHttp: true,
    ...(limits ? { responseLimits: limits } : {}),
  });
}

/** Runs an authorized request in `m`; its AuthError (or undefined when served) and how long it took. */
async function attempt(m: Mode, limits?: AuthResponseLimits): Promise<{ error: AuthError | undefined; ms: number }> {
  mode = m;
  const t0 = performance.now();
  try {
    const res = await client(limits).fetch(`${base}/mcp`);
    expect(await res.text()).toBe('served');
    return { error: undefined, ms: performance.now() - t0 };
  } catch (err) {
    if (!(err instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(err)}`, { cause: err });
    return { error: err, ms: performance.now() - t0 };
  }
}

describe('the OAuth client and a hostile authorization server', () => {
  it('is authorized and served when every answer is sound (the harness works)', async () => {
    expect((await attempt('ok')).error).toBeUndefined();
  });

  it('defaults: 1 MiB and 30 s', () => {
    expect(AUTH_RESPONSE_LIMIT_DEFAULTS).toEqual({ maxBytes: 1 << 20, timeoutMs: 30_000 });
  });

  for (const where of ['resource', 'as', 'token'] as const) {
    it(`${where}: an oversized streamed answer stops at maxBytes, long before its end`, async () => {
      const { error, ms } = await attempt(`${where}-big`);
      expect(error?.check).toBe('response-limit');
      expect(error?.message).toMatch(new RegExp(`^${base}/\\S+: the answer is larger than 1048576 bytes$`));
      expect(ms).toBeLessThan(PROMPT_MS);
      expect(pumped).toBeLessThan(16 << 20);
    });

    it(`${where}: a declared Content-Length past maxBytes is refused before reading`, async () => {
      const { error, ms } = await attempt(`${where}-declared`);
      expect(error?.check).toBe('response-limit');
      expect(error?.message).toContain(`the answer is larger than 1048576 bytes (Content-Length ${512 << 20})`);
      expect(ms).toBeLessThan(PROMPT_MS);
    });

    it(`${where}: an answer trickled a byte per 100 ms ends at timeoutMs`, async () => {
      const { error, ms } = await attempt(`${where}-trickle`, { timeoutMs: 800 });
      expect(error?.check).toBe('response-limit');
      expect(error?.message).toMatch(/: no complete answer within 800 ms$/);
      expect(ms).toBeGreaterThanOrEqual(700);
      expect(ms).toBeLessThan(PROMPT_MS);
    });

    it(`${where}: a body cut mid-way, or not UTF-8, is an AuthError, promptly`, async () => {
      for (const how of ['cut', 'utf8'] as const) {
        const { error, ms } = await attempt(`${where}-${how}`);
        expect(error, how).toBeInstanceOf(AuthError);
        expect(ms, how).toBeLessThan(PROMPT_MS);
      }
    });

    it(`${where}: a member nested 100,000 levels (200 KB, under maxBytes) is parsed without harm, promptly`, async () => {
      const { error, ms } = await attempt(`${where}-deep`);
      if (error) expect(error.check).not.toBe('configuration');
      expect(ms).toBeLessThan(PROMPT_MS);
    });
  }

  it('a smaller maxBytes applies to the documents too', async () => {
    const { error } = await attempt('ok', { maxBytes: 64 });
    expect(error?.check).toBe('response-limit');
    expect(error?.message).toMatch(/the answer is larger than 64 bytes/);
  });
});
