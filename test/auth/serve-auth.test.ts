/**
 * `wiregen serve <target> --http <port> --auth <config>`: a server of ours served as an OAuth 2.1 protected
 * resource from a configuration file, against a real authorization server on loopback (test/auth/local-as.ts).
 * A request without a token gets the RFC 6750 §3 challenge naming the RFC 9728 metadata document, which is
 * served; a token the authorization server signed for this resource is accepted. Bad configurations are one
 * line each, exit 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http-client.ts';
import { ROOT } from '../helpers/project.ts';
import { startLocalAs, type LocalAs } from './local-as.ts';

const CLI = join(ROOT, 'bin', 'wiregen.mjs');
let as: LocalAs;
let dir: string;

beforeAll(async () => {
  as = await startLocalAs();
  dir = mkdtempSync(join(tmpdir(), 'wiregen-serve-auth-'));
});
afterAll(async () => {
  await as?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const serveOnce = (args: readonly string[]) =>
  spawnSync(process.execPath, [CLI, 'serve', ...args], { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 });

describe('wiregen serve --auth', () => {
  it('protects the server: challenge, metadata document, and a signed token accepted', async () => {
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const config = join(dir, 'auth.json');
    writeFileSync(
      config,
      JSON.stringify({ resource, authorizationServers: [as.issuer], verify: { jwt: { issuer: as.issuer } }, allowLoopbackHttp: true }),
    );
    const child = spawn(process.execPath, [CLI, 'serve', 'recorded-server', '--http', String(port), '--auth', config], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      expect(url).toBe(resource);
      const refused = await call(url, 'tools/list');
      expect(refused.status).toBe(401);
      const challenge = String(refused.headers['www-authenticate']);
      const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      expect(challenge).toContain(`resource_metadata="${metadataUrl}"`);
      const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ resource, authorization_servers: [as.issuer] });
      const token = await as.server.issuer.buildToken({
        scopesOrTransform: (_header, payload) => Object.assign(payload, { sub: 'alice', aud: resource }),
      });
      const ok = await call(url, 'tools/list', {}, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect((ok.json?.['result'] as { tools: unknown[] } | undefined)?.tools.length).toBeGreaterThan(0);
      const otherAudience = await as.server.issuer.buildToken({
        scopesOrTransform: (_header, payload) => Object.assign(payload, { sub: 'alice', aud: 'https://elsewhere.example/mcp' }),
      });
      expect((await call(url, 'tools/list', {}, { headers: { authorization: `Bearer ${otherAudience}` } })).status).toBe(401);
    } finally {
      child.stdin.end();
      child.kill('SIGTERM');
    }
  });

  it.each([
    [
      'a field missing',
      { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://as.example.com'] },
      /auth\.json:1:1 \(root\): missing required property "verify"$/,
    ],
    [
      'a field of the wrong type',
      { resource: 'https://mcp.example.com/mcp', authorizationServers: 'https://as.example.com', verify: { jwt: { issuer: 'x' } } },
      /\/authorizationServers/,
    ],
    [
      'a resource with a fragment',
      { resource: 'https://mcp.example.com/mcp#x', authorizationServers: ['https://as.example.com'], verify: { jwt: { issuer: 'x' } } },
      /no query or fragment/,
    ],
  ])('a configuration with %s: one line naming it, exit 2', (_what, config, line) => {
    const file = join(dir, 'auth.json');
    writeFileSync(file, JSON.stringify(config));
    const r = serveOnce(['recorded-server', '--http', '0', '--auth', file]);
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a missing file, --auth with --stdio, and --auth for an agent: one line each, exit 2', () => {
    const missing = serveOnce(['recorded-server', '--http', '0', '--auth', 'nowhere.json']);
    expect([missing.status, missing.stderr.trim()]).toEqual([2, 'wiregen serve: --auth nowhere.json: no such file']);
    const stdio = serveOnce(['recorded-server', '--stdio', '--auth', 'x.json']);
    expect(stdio.status).toBe(2);
    expect(stdio.stderr.trim()).toMatch(/^wiregen serve: --auth is for --http/);
    const agent = serveOnce(['research-agent', '--http', '0', '--auth', 'x.json']);
    expect(agent.status).toBe(2);
    expect(agent.stderr.trim()).toMatch(/^wiregen serve: --auth protects MCP servers; research-agent is an A2A agent/);
  });
});

describe('wiregen serve of an agent whose card requires a token', () => {
  const card = {
    name: 'Locked',
    description: 'Requires a bearer token.',
    supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    version: '1.0.0',
    capabilities: {},
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'S.', tags: ['s'] }],
  };
  const module = (verifiers: string) =>
    `import { A2aServer } from '@wiregen/runtime/a2a';\n` +
    `export default new A2aServer({ card: ${JSON.stringify(card)}, executor: { execute: async (ctx) => ctx.reply('hi') }${verifiers} });\n`;

  it('without a verifier: does not start, one line naming the scheme, exit 2', () => {
    const file = join(dir, 'locked.mjs');
    writeFileSync(file, module(''));
    const r = serveOnce([file, '--http', '0']);
    expect([r.status, r.stdout]).toEqual([2, '']);
    expect(r.stderr.trim().split('\n')).toEqual([
      'wiregen serve: agent "Locked" declares security scheme "bearer" (card.securitySchemes.bearer) but no bearer verifier was given: ' +
        'pass verifiers: { bearer: (token) => … } (a function of yours, or jwtVerifier of @wiregen/runtime/auth) to createAgent or A2aServer',
    ]);
  });

  it('with one: a request without the token is 401, with it 200', async () => {
    const file = join(dir, 'unlocked.mjs');
    writeFileSync(file, module(`, verifiers: { bearer: (token) => token === 'open-sesame' }`));
    const child = spawn(process.execPath, [CLI, 'serve', file, '--http', '0'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
      const headers = { 'content-type': 'application/json', 'a2a-version': '1.0' };
      expect((await fetch(`${url}/a2a`, { method: 'POST', headers, body })).status).toBe(401);
      const ok = await fetch(`${url}/a2a`, { method: 'POST', headers: { ...headers, authorization: 'Bearer open-sesame' }, body });
      expect([ok.status, ((await ok.json()) as { error?: { code?: number } }).error?.code]).toEqual([200, -32001]);
    } finally {
      child.stdin.end();
      child.kill('SIGTERM');
    }
  });
});
