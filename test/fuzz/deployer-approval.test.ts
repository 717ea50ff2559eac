/**
 * @module test/fuzz/deployer-approval — the deployer's approval route (`POST /approve/<task id>`, outside A2A,
 * before its authentication) is bound to loopback (samples/deployer.ts): a client from another address, a
 * Host or Origin that is not loopback (DNS rebinding, a web page in the operator's browser) is 403 and the
 * deploy keeps waiting; with an operator token configured, only that token approves.
 */
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeployer, DEPLOY_TOKEN, type Deployer } from '../../samples/deployer.ts';
import { listenA2aHttp, type RunningA2aServer } from '../../runtime/a2a/http.ts';
import { A2aServer } from '../../runtime/a2a/server.ts';

const running: RunningA2aServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

/** The deployer served as `wiregen serve deployer` serves it, with one staging deploy waiting for approval. */
async function waitingDeploy(deployer: Deployer): Promise<{ url: string; taskId: string }> {
  const { agent } = deployer;
  const server = new A2aServer({ card: agent.card, executor: agent.executor, behaviour: agent.behaviour });
  const r = await listenA2aHttp(server, { ...agent.http, port: 0 });
  running.push(r);
  const send = await fetch(`${r.url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${DEPLOY_TOKEN}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'deploy build 42 to staging' }] },
        configuration: { returnImmediately: true },
      },
    }),
  });
  expect(send.status).toBe(200);
  for (let i = 0; i < 100 && deployer.waiting().length === 0; i++) await new Promise((res) => setTimeout(res, 10));
  expect(deployer.waiting()).toHaveLength(1);
  return { url: r.url, taskId: deployer.waiting()[0]! };
}

/** A POST with exactly `headers` (fetch will not send a Host of the caller's choosing). */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Calls the route as node:http would, from `remoteAddress` with `headers`. */
async function route(deployer: Deployer, remoteAddress: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const rawHeaders = Object.entries(headers).flat();
  // The part of IncomingMessage the route reads (method, headers, the peer's address); a socket from another
  // address cannot be made on loopback, so the request is built.
  const req = { method: 'POST', url: '/approve/t1', headers, rawHeaders, socket: { remoteAddress } } as unknown as IncomingMessage;
  let status = 0;
  let body = '';
  // The part of ServerResponse sendJson uses; the rest of the type is not needed by the route.
  const res = {
    headersSent: false,
    writeHead(s: number) {
      status = s;
      return res;
    },
    end(text?: string) {
      body = text ?? '';
    },
  } as unknown as ServerResponse;
  await deployer.agent.http!.routes!(req, res, new URL('http://x/approve/t1'));
  // Answers are written at the end of the event loop's turn (runtime/transports/node-exchange.ts).
  await new Promise((resolve) => setImmediate(resolve));
  return { status, body: JSON.parse(body) };
}

describe('the deployer approval route', () => {
  it('answers loopback clients: a waiting deploy is approved with 200', async () => {
    const deployer = createDeployer();
    const { url, taskId } = await waitingDeploy(deployer);
    const approved = await fetch(`${url}/approve/${taskId}`, { method: 'POST' });
    expect([approved.status, await approved.json()]).toEqual([200, { approved: taskId }]);
    expect(deployer.waiting()).toEqual([]);
  });

  it('refuses a Host or an Origin that is not loopback with 403; the deploy keeps waiting', async () => {
    const deployer = createDeployer();
    const { url, taskId } = await waitingDeploy(deployer);
    for (const headers of [{ host: 'deployer.example' }, { origin: 'http://evil.example' }, { origin: 'null' }] as Record<string, string>[]) {
      const refused = await post(`${url}/approve/${taskId}`, headers);
      expect(refused.status).toBe(403);
      expect((refused.body as { error: string }).error).toMatch(/^the approval route answers loopback clients only/);
    }
    expect(deployer.waiting()).toEqual([taskId]);
  });

  it('refuses a client connected from another address, whatever it sends', async () => {
    const deployer = createDeployer();
    for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', '2001:db8::1']) {
      expect(await route(deployer, address, { host: '127.0.0.1:41243' })).toEqual({
        status: 403,
        body: { error: 'the approval route answers loopback clients only' },
      });
    }
    expect((await route(deployer, '::ffff:127.0.0.1', { host: 'localhost' })).status).toBe(404);
  });

  it('with an operator token, wants that token (the deploy token is not it)', async () => {
    const deployer = createDeployer({ operatorToken: 'operator-secret' });
    const { url, taskId } = await waitingDeploy(deployer);
    for (const authorization of [undefined, `Bearer ${DEPLOY_TOKEN}`, 'Bearer operator-secre', 'Bearer operator-secretx', 'operator-secret']) {
      const refused = await fetch(`${url}/approve/${taskId}`, { method: 'POST', headers: authorization ? { authorization } : {} });
      expect([refused.status, await refused.json()]).toEqual([403, { error: 'the approval route needs the operator token' }]);
    }
    expect(deployer.waiting()).toEqual([taskId]);
    const approved = await fetch(`${url}/approve/${taskId}`, { method: 'POST', headers: { authorization: 'Bearer operator-secret' } });
    expect(approved.status).toBe(200);
  });
});
