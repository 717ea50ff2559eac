/**
 * @module kit/network — the kit's three agents and its webhook receiver on loopback, each with its own
 * seeded id generator and clock. Every agent is known by its written address (127.0.0.1:41241–41243, the
 * receiver 127.0.0.1:41244): that is what the cards, the transcripts and the webhook URLs say. With another
 * base port (0 in the tests: any free port) the servers listen elsewhere and `fetch` (the kit's, and the
 * agents' push sender's) routes the written addresses there, so nothing written depends on the port.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenA2aHttp, type A2aHttpOptions, type RunningA2aServer } from '../runtime/a2a/http.ts';
import { A2aServer } from '../runtime/a2a/server.ts';
import type { AgentDefinition } from '../runtime/a2a/agent.ts';
import codeReviewer from '../samples/code-reviewer.ts';
import { createDeployer, type Deployer } from '../samples/deployer.ts';
import { createTestRunner } from '../samples/test-runner.ts';
import { kitClock, seededIds } from './ids.ts';
import { Pacer } from './pacer.ts';
import { demoSigningKey, jwksOf, signCard, type SignatureSteps } from './signing.ts';
import { listenWebhooks, type WebhookReceiver } from './webhooks.ts';
import { card as codeReviewerCard } from '../generated/samples/code-reviewer/index.ts';
import { card as deployerCard } from '../generated/samples/deployer/index.ts';
import { card as testRunnerCard } from '../generated/samples/test-runner/index.ts';
import type { AgentCard } from '../runtime/a2a/types.ts';

export const AGENT_NAMES = ['test-runner', 'code-reviewer', 'deployer'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export const DEFAULT_BASE_PORT = 41241;
/** Each agent's card (schemas/samples/a2a/<agent>.yaml): its interfaces say where it is written to be. */
export const CARDS: Readonly<Record<AgentName, AgentCard>> = {
  'test-runner': testRunnerCard,
  'code-reviewer': codeReviewerCard,
  deployer: deployerCard,
};
/** The URL of an agent's interface for `binding`, as its card writes it. */
export function interfaceUrl(agent: AgentName, binding: 'JSONRPC' | 'HTTP+JSON'): string {
  const found = CARDS[agent].supportedInterfaces.find((i) => i.protocolBinding === binding);
  if (!found) throw new Error(`${agent}'s card lists no ${binding} interface`);
  return found.url;
}
/**
 * Where each agent is written to be (the origin of its card's interfaces; it listens there with the default
 * base port), and the webhook receiver (base port + 3), which has no card.
 */
export const WRITTEN: Readonly<Record<AgentName | 'webhooks', string>> = {
  ...(Object.fromEntries(AGENT_NAMES.map((name) => [name, new URL(interfaceUrl(name, 'JSONRPC')).origin])) as Record<AgentName, string>),
  webhooks: `http://127.0.0.1:${DEFAULT_BASE_PORT + 3}`,
};
export { DEPLOY_TOKEN } from '../samples/deployer.ts';
export const JWKS_PATH = '/.well-known/jwks.json';

export interface NetworkOptions {
  /** The test runner's port; the others follow it (+1, +2, the receiver +3). 0: any free ports. Default 41241. */
  readonly basePort?: number;
}

export interface KitNetwork {
  readonly pacer: Pacer;
  readonly deployer: Deployer;
  readonly servers: Readonly<Record<AgentName, A2aServer>>;
  readonly receiver: WebhookReceiver;
  /** How the deployer's card was signed. */
  readonly signature: SignatureSteps;
  /** fetch with the written addresses routed to the listening ones. */
  readonly fetch: typeof fetch;
  /** Resolves once every push delivery started so far has been received. */
  pushesSettled(): Promise<void>;
  /** What the agents logged (an execution that failed, a push that did not arrive): a capture wants none. */
  readonly logs: string[];
  close(): Promise<void>;
}

/** The deployer's routes beside its own (the operator's approval): the JWKS its card's signature names. */
function withJwks(agent: AgentDefinition, jwks: unknown): A2aHttpOptions {
  const own = agent.http?.routes;
  return {
    ...agent.http,
    routes: async (req: IncomingMessage, res: ServerResponse, url: URL) => {
      if (url.pathname === JWKS_PATH && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
        return true;
      }
      return (await own?.(req, res, url)) ?? false;
    },
  };
}

/** fetch with `routes` (written origin → listening origin) applied to the URL. */
function routedFetch(routes: ReadonlyMap<string, string>, inner: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const target = routes.get(url.origin);
    return inner(target ? target + url.pathname + url.search : url.href, init);
  };
}

/** Push deliveries one at a time, in the order the runtime starts them, so the receiver sees them in order. */
function serialFetch(inner: typeof fetch): { fetch: typeof fetch; settled(): Promise<void> } {
  let chain: Promise<unknown> = Promise.resolve();
  return {
    fetch: (input, init) => {
      const run = chain.then(() => inner(input, init));
      chain = run.then(
        (res) => res.arrayBuffer(),
        () => undefined,
      );
      return run.then((res) => new Response(null, { status: res.status, statusText: res.statusText, headers: res.headers }));
    },
    async settled() {
      // A delivery may be started a few turns after the update it carries: wait until none is added.
      for (let last: unknown; last !== chain;) {
        last = chain;
        await chain;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

export async function startNetwork(options: NetworkOptions = {}): Promise<KitNetwork> {
  const base = options.basePort ?? DEFAULT_BASE_PORT;
  const portOf = (i: number) => (base === 0 ? 0 : base + i);
  const logs: string[] = [];
  const routes = new Map<string, string>();
  const kitFetch = routedFetch(routes);
  const push = serialFetch(kitFetch);
  const pacer = new Pacer();
  const deployer = createDeployer();
  const key = demoSigningKey();
  const signed = signCard(deployer.agent.card, key, WRITTEN.deployer + JWKS_PATH);
  const running: { close(): Promise<void> }[] = [];

  const receiver = await listenWebhooks(portOf(3));
  running.push(receiver);
  routes.set(WRITTEN.webhooks, receiver.url);

  const start = async (name: AgentName, i: number, agent: AgentDefinition, http: A2aHttpOptions = agent.http ?? {}): Promise<A2aServer> => {
    const server = new A2aServer({
      card: name === 'deployer' ? signed.card : agent.card,
      ...(agent.extendedCard ? { extendedCard: agent.extendedCard } : {}),
      executor: agent.executor,
      behaviour: agent.behaviour,
      ids: seededIds(name),
      clock: kitClock(),
      push: { allowedHosts: ['127.0.0.1'], fetch: push.fetch, backoffMs: 10 },
      log: (line) => logs.push(`${name}: ${line}`),
    });
    const listening: RunningA2aServer = await listenA2aHttp(server, { ...http, host: '127.0.0.1', port: portOf(i) });
    running.push({ close: async () => (await server.close(), await listening.close()) });
    routes.set(WRITTEN[name], listening.url);
    return server;
  };
  try {
    const servers = {
      'test-runner': await start('test-runner', 0, createTestRunner({ pace: pacer.at })),
      'code-reviewer': await start('code-reviewer', 1, codeReviewer),
      deployer: await start('deployer', 2, deployer.agent, withJwks(deployer.agent, jwksOf(key))),
    };
    return {
      pacer,
      deployer,
      servers,
      receiver,
      signature: signed.steps,
      fetch: kitFetch,
      pushesSettled: () => push.settled(),
      logs,
      close: async () => {
        // Anything still waiting (a held run, a deploy nobody approved) is let go so the servers can drain.
        pacer.releaseAll();
        for (const id of deployer.waiting()) deployer.approve(id);
        await Promise.all(running.splice(0).map((r) => r.close()));
      },
    };
  } catch (err) {
    await Promise.all(running.map((r) => r.close()));
    throw err;
  }
}
