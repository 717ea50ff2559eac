/**
 * @module samples/deployer — the executor of the A2A 101 kit's deployer (card:
 * schemas/samples/a2a/deployer.yaml). "deploy build <n> to staging" waits in TASK_STATE_AUTH_REQUIRED
 * until an operator approves it outside A2A (`approve(taskId)`, which the kit serves as
 * `POST /approve/<task id>`), then deploys; production is refused (TASK_STATE_REJECTED); a question gets a
 * direct reply. Authentication (a bearer token) runs in front of the protocol, for both bindings; the
 * approval route and the authentication travel with the agent (`agent.http`), so `wiregen serve` and the
 * kit serve the same deployer.
 *
 * The approval route is outside A2A, so A2A's authentication does not cover it (it runs before it): it is
 * bound to loopback instead. It answers only a client connected from a loopback address, naming a loopback
 * Host, with no Origin or a loopback one (a web page cannot approve through the operator's browser), and
 * refuses anything else with 403. With `operatorToken`, it also wants `Authorization: Bearer <operatorToken>`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineAgent } from '../generated/samples/deployer/index.ts';
import type { AgentDefinition } from '../runtime/a2a/agent.ts';
import type { Authenticate } from '../runtime/a2a/http.ts';
import { LOOPBACK_HOSTS, refusedOrigin } from '../runtime/transports/exchange.ts';
import { sendJson } from '../runtime/transports/http.ts';
import { NodeRequest } from '../runtime/transports/node-exchange.ts';

/** The deployer's bearer token (a demo value). */
export const DEPLOY_TOKEN = 'kit-demo-deploy-token';

/** Constant-time equality (of digests: the lengths of secrets do not show either). */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Bearer authentication in front of the protocol: a missing or wrong token is a 401 with a challenge. */
export const deployerAuth: Authenticate = (req) => {
  const header = req.headers.authorization;
  if (typeof header === 'string' && sameSecret(header, `Bearer ${DEPLOY_TOKEN}`)) return { ok: true };
  if (!header) return { ok: false, challenge: 'Bearer realm="deployer"' };
  return { ok: false, challenge: 'Bearer realm="deployer", error="invalid_token", error_description="not a deploy token"' };
};

function json(res: ServerResponse, status: number, body: unknown): true {
  sendJson(res, status, JSON.stringify(body));
  return true;
}

export interface Deployer {
  readonly agent: AgentDefinition;
  /** The operator's approval: false when no deploy with that task id waits for one. */
  approve(taskId: string): boolean;
  /** Task ids waiting for an operator, in the order they started waiting. */
  waiting(): string[];
}

const REQUEST = /^deploy build (\d+) to (\S+)$/;
const INVENTORY = 'staging runs build 41, production runs build 40.';

export interface DeployerOptions {
  /** A token the approval route also requires (`Authorization: Bearer <token>`). Default: none (loopback only). */
  readonly operatorToken?: string;
}

/** Addresses a loopback client connects from (IPv4, IPv6, IPv4-mapped IPv6). */
const LOOPBACK_ADDRESS = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Why the approval route refuses `req`, or undefined when it is an operator's on this machine. */
function refusedApproval(req: IncomingMessage, options: DeployerOptions): string | undefined {
  if (!LOOPBACK_ADDRESS.test(req.socket.remoteAddress ?? '')) return 'the approval route answers loopback clients only';
  const refused = refusedOrigin(new NodeRequest(req), { allowedOrigins: LOOPBACK_HOSTS, allowedHosts: LOOPBACK_HOSTS });
  if (refused) return `the approval route answers loopback clients only: ${refused}`;
  const header = req.headers.authorization;
  if (options.operatorToken !== undefined && !(typeof header === 'string' && sameSecret(header, `Bearer ${options.operatorToken}`)))
    return 'the approval route needs the operator token';
  return undefined;
}

export function createDeployer(options: DeployerOptions = {}): Deployer {
  const approvals = new Map<string, () => void>();
  const approve = (taskId: string): boolean => {
    const resolve = approvals.get(taskId);
    if (!resolve) return false;
    approvals.delete(taskId);
    resolve();
    return true;
  };
  /** The operator's approval outside A2A: POST /approve/<task id>. */
  const routes = (req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
    const match = /^\/approve\/([^/]+)$/.exec(url.pathname);
    if (!match) return false;
    const refused = refusedApproval(req, options);
    if (refused) return json(res, 403, { error: refused });
    if (req.method !== 'POST') return json(res, 405, { error: 'POST approves a deploy' });
    const taskId = decodeURIComponent(match[1]!);
    if (!approve(taskId)) return json(res, 404, { error: `no deploy waits for approval with task id ${taskId}` });
    return json(res, 200, { approved: taskId });
  };
  const executor = defineAgent({
    async execute(ctx) {
      if (ctx.task)
        return ctx
          .currentTask()
          .authRequired(ctx.currentTask().agentMessage('This deploy still waits for an operator; only an operator can approve it.'));
      const request = REQUEST.exec(ctx.text.trim());
      if (!request) return ctx.reply(ctx.text.trim().endsWith('?') ? INVENTORY : 'Say "deploy build <n> to staging".');
      const [, build, environment] = request as unknown as [string, string, string];
      const task = await ctx.startTask();
      if (environment !== 'staging')
        return task.reject(
          task.agentMessage(`Deploying to ${environment} needs a change ticket and a release manager; this agent deploys to staging only.`),
        );
      await task.working(task.agentMessage(`Build ${build} is ready for staging.`));
      const approved = new Promise<void>((resolve) => approvals.set(task.taskId, resolve));
      await task.authRequired(task.agentMessage(`An operator must approve this deploy: POST /approve/${task.taskId} on the deployer.`));
      await Promise.race([approved, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }))]);
      approvals.delete(task.taskId);
      if (ctx.signal.aborted) return;
      await task.working(task.agentMessage(`Approved by an operator; deploying build ${build} to staging.`));
      await task.artifact({
        name: 'deployment',
        parts: [
          { data: { build: Number(build), environment, url: 'https://staging.example.com', approvedBy: 'operator' }, mediaType: 'application/json' },
        ],
      });
      await task.complete(task.agentMessage(`Build ${build} runs on staging.`));
    },
  });
  return { agent: { ...executor, http: { authenticate: deployerAuth, routes } }, approve, waiting: () => [...approvals.keys()] };
}

export default createDeployer().agent;
