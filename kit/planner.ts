/**
 * @module kit/planner — the kit's client agent: it reads the agents' cards, checks a
 * signed card against its JWKS, picks an agent for each skill the plan needs, and runs the plan on the
 * generated A2A client, handling every state a task reaches: it answers TASK_STATE_INPUT_REQUIRED on the
 * same task, asks a person when a task waits in TASK_STATE_AUTH_REQUIRED (keeping the stream open), picks
 * up a stream that ends early with SubscribeToTask, and decides what to do on completion, rejection,
 * failure or cancellation. Every decision is a line of its log.
 */
import type { Client } from '../generated/a2a-1.0/index.ts';
import { clientForCard } from '../runtime/a2a/client.ts';
import type { AgentCard, Message, Part, Task, TaskState } from '../runtime/a2a/types.ts';
import { Base64urlError, decodeBase64url, verifyCard, type Jwks } from './signing.ts';

export interface PlannerOptions {
  /** The agents' base URLs, where their cards are. */
  readonly agents: readonly string[];
  readonly fetch: typeof fetch;
  /** The planner's credential for a card's HTTP auth scheme, if it has one. */
  readonly credentials: (card: AgentCard, scheme: string) => string | undefined;
  /** Ids for the planner's messages. */
  readonly ids: () => string;
  readonly log: (line: string) => void;
  /** Asks a person to approve what a task waits for; resolves once asked. */
  readonly escalate: (agentBase: string, taskId: string, why: string) => Promise<void>;
  /** Called before each request, with what it is for (the kit titles its transcript with it). */
  readonly mark?: (title: string) => void;
}

interface Peer {
  readonly base: string;
  readonly card: AgentCard;
  readonly client: Client;
}

/** How a task ended for the planner. */
interface Outcome {
  readonly state: TaskState | 'message';
  readonly text: string;
  readonly artifacts: ReadonlyMap<string, string>;
}

/** What the planner wants done. */
export const PLAN = {
  build: 42,
  commit: '4f2c9e1',
  baseBranch: 'main',
  /** Where to deploy, in order of preference. */
  environments: ['production', 'staging'],
  diff: [
    'diff --git a/src/retry.ts b/src/retry.ts',
    '--- a/src/retry.ts',
    '+++ b/src/retry.ts',
    '@@ -1,3 +1,6 @@',
    ' export async function retry(call: () => Promise<void>) {',
    '-  await call();',
    '+  for (let attempt = 1; ; attempt++) {',
    '+    try { return await call(); } catch (err) { if (attempt === 3) throw err; }',
    '+  }',
    ' }',
    '',
  ].join('\n'),
} as const;

const textOf = (parts: readonly Part[] | undefined) => (parts ?? []).map((p) => p.text ?? '').join('');
const quote = (m: Message | undefined) => (m ? `: "${textOf(m.parts)}"` : '');

export async function runPlanner(o: PlannerOptions): Promise<string> {
  const log = o.log;
  log(
    `goal: ship build ${PLAN.build} (commit ${PLAN.commit}) to ${PLAN.environments[0]}; the plan allows ${PLAN.environments.slice(1).join(', ')} if it is refused`,
  );
  const peers: Peer[] = [];
  for (const base of o.agents) {
    const peer = await discover(o, base);
    if (peer) peers.push(peer);
  }
  const pick = (tag: string): Peer => {
    const found = peers.flatMap((p) => p.card.skills.filter((s) => s.tags.includes(tag)).map((s) => ({ p, s })))[0];
    if (!found) throw new Error(`no agent has a skill tagged ${tag}`);
    log(`pick ${tag}: "${found.p.card.name}", skill ${found.s.id} (tags ${found.s.tags.join(', ')})`);
    return found.p;
  };
  const [reviewer, runner, deployer] = [pick('review'), pick('tests'), pick('deploy')];

  log(`step 1, review: the change of commit ${PLAN.commit}, to "${reviewer.card.name}"`);
  const parts: Part[] = [
    { text: `Please review the change in commit ${PLAN.commit}.` },
    { text: PLAN.diff, mediaType: 'text/x-diff', filename: 'retry.diff' },
  ];
  const review = await runTask(o, reviewer, parts, 'review', (question) => (/base branch/i.test(question) ? PLAN.baseBranch : undefined));
  if (review.state !== 'TASK_STATE_COMPLETED' || /cap the attempts/.test(review.artifacts.get('review') ?? ''))
    return stop(log, `the review did not pass (${review.state}${review.text ? `: ${review.text}` : ''})`);
  log(`  decision: the review passed ("${review.text}"); next, the tests`);

  log(`step 2, tests: the unit suite at ${PLAN.commit}, to "${runner.card.name}"`);
  const tests = await runTask(o, runner, [{ text: `run the unit suite at ${PLAN.commit}` }], 'tests', () => undefined);
  const counts = /Tests: (\d+) passed, (\d+) total/.exec(tests.artifacts.get('test-log') ?? '');
  if (tests.state !== 'TASK_STATE_COMPLETED' || !counts || counts[1] !== counts[2]) return stop(log, `the tests did not pass (${tests.state})`);
  log(`  decision: ${counts[1]} of ${counts[2]} tests passed; next, the deploy`);

  for (const [attempt, environment] of PLAN.environments.entries()) {
    log(`step 3, deploy${attempt ? ' (next environment)' : ''}: build ${PLAN.build} to ${environment}, to "${deployer.card.name}"`);
    const deploy = await runTask(
      o,
      deployer,
      [{ text: `deploy build ${PLAN.build} to ${environment}` }],
      `deploy to ${environment}`,
      () => undefined,
    );
    if (deploy.state === 'TASK_STATE_COMPLETED') {
      const where = /"url":"([^"]+)"/.exec(deploy.artifacts.get('deployment') ?? '')?.[1] ?? 'no URL given';
      const result = `build ${PLAN.build} reviewed against ${PLAN.baseBranch}, ${counts[1]} tests passed, deployed to ${environment} (${where})`;
      log(`  decision: done`);
      log(`result: ${result}`);
      return result;
    }
    if (deploy.state !== 'TASK_STATE_REJECTED') return stop(log, `the deploy to ${environment} ended in ${deploy.state}`);
    log(`  decision: ${environment} refused ("${deploy.text}"); trying the next environment the plan allows`);
  }
  return stop(log, 'every environment refused the deploy');
}

function stop(log: (line: string) => void, why: string): string {
  log(`result: stopped: ${why}`);
  return `stopped: ${why}`;
}

/** Reads a card, checks its signature if it has one, and makes a client on its preferred binding. */
async function discover(o: PlannerOptions, base: string): Promise<Peer | undefined> {
  o.mark?.(`read the card at ${base}`);
  const card = (await (await o.fetch(`${base}/.well-known/agent-card.json`, { headers: { accept: 'application/json' } })).json()) as AgentCard;
  const skills = card.skills.map((s) => `${s.id} [${s.tags.join(', ')}]`).join('; ');
  o.log(
    `card "${card.name}" ${card.version} at ${base}: skills ${skills}; streaming ${card.capabilities.streaming ? 'yes' : 'no'}, push ${card.capabilities.pushNotifications ? 'yes' : 'no'}`,
  );
  if (!card.capabilities.streaming) {
    o.log(`  decision: skip "${card.name}": the planner follows tasks on streams and this agent does not stream`);
    return undefined;
  }
  if (card.signatures?.length && !(await checkSignature(o, base, card))) return undefined;
  const headers: Record<string, string> = {};
  for (const requirement of card.securityRequirements ?? [])
    for (const name of Object.keys(requirement.schemes ?? {})) {
      const scheme = card.securitySchemes?.[name]?.httpAuthSecurityScheme;
      const credential = scheme && /^bearer$/i.test(scheme.scheme) ? o.credentials(card, name) : undefined;
      if (!credential) {
        o.log(`  decision: skip "${card.name}": it requires ${name}, for which the planner has no credential`);
        return undefined;
      }
      headers['authorization'] = `Bearer ${credential}`;
      o.log(`  security: ${name} (HTTP ${scheme!.scheme}); the planner has a token for it`);
    }
  const chosen = clientForCard(card, { fetch: o.fetch, headers });
  if (!chosen) {
    o.log(`  decision: skip "${card.name}": no JSONRPC or HTTP+JSON interface`);
    return undefined;
  }
  o.log(`  binding: ${chosen.interface.protocolBinding} at ${chosen.interface.url}`);
  return { base, card, client: chosen.client };
}

/** §8.4.3: the keys come from the header's jku, which must be on the card's own origin. */
async function checkSignature(o: PlannerOptions, base: string, card: AgentCard): Promise<boolean> {
  let header: { jku?: string; kid?: string };
  try {
    header = JSON.parse(decodeBase64url(card.signatures![0]!.protected, 'protected').toString('utf8')) as typeof header;
  } catch (err) {
    o.log(`  decision: skip "${card.name}": ${err instanceof Base64urlError ? err.message : "its signature's protected header is not JSON"}`);
    return false;
  }
  if (!header?.jku || new URL(header.jku).origin !== new URL(base).origin) {
    o.log(`  decision: skip "${card.name}": its signature's jku is not on its own origin`);
    return false;
  }
  o.mark?.(`fetch the JWKS the deployer card's signature names`);
  const jwks = (await (await o.fetch(header.jku, { headers: { accept: 'application/json' } })).json()) as Jwks;
  const verdict = verifyCard(card, jwks);
  o.log(`  signature: ${verdict.ok ? 'VALID' : 'INVALID'}, keys from ${header.jku}; ${verdict.lines.join('; ')}`);
  if (!verdict.ok) o.log(`  decision: skip "${card.name}": its card may have been changed`);
  return verdict.ok;
}

/**
 * Runs one task to an end the planner can act on: streams it, answers questions on the same task, asks a
 * person on TASK_STATE_AUTH_REQUIRED while the stream stays open, and resubscribes to a stream that ends
 * while the task is still going.
 */
async function runTask(
  o: PlannerOptions,
  peer: Peer,
  parts: Part[],
  purpose: string,
  answer: (question: string) => string | undefined,
): Promise<Outcome> {
  const log = (line: string) => o.log(`  ${line}`);
  const artifacts = new Map<string, string>();
  let message: Message = { messageId: o.ids(), role: 'ROLE_USER', parts };
  let task: Task | undefined;
  let frames: AsyncIterable<Record<string, any>>;
  o.mark?.(`${purpose}: SendStreamingMessage`);
  frames = peer.client.sendStreamingMessage({ message });
  for (;;) {
    let state: TaskState | undefined;
    let status: Message | undefined;
    for await (const frame of frames) {
      if (frame.message) {
        log(`a direct reply${quote(frame.message)}`);
        return { state: 'message', text: textOf(frame.message.parts), artifacts };
      }
      if (frame.task) {
        task = frame.task as Task;
        state = task.status.state;
        log(`task ${task.id}: ${state}`);
      }
      if (frame.artifactUpdate) {
        const { artifact, append } = frame.artifactUpdate;
        const key = artifact.name ?? artifact.artifactId;
        artifacts.set(
          key,
          (append ? (artifacts.get(key) ?? '') : '') + (textOf(artifact.parts) || JSON.stringify(artifact.parts.map((p: Part) => p.data))),
        );
        log(`artifact ${key}${append ? ', appended' : ''}${frame.artifactUpdate.lastChunk ? ', last chunk' : ''}`);
      }
      if (frame.statusUpdate) {
        state = frame.statusUpdate.status.state as TaskState;
        status = frame.statusUpdate.status.message as Message | undefined;
        log(`${state}${quote(status)}`);
        if (state === 'TASK_STATE_AUTH_REQUIRED') {
          log('decision: only a person can approve this; asking the operator and keeping the stream open');
          await o.escalate(peer.base, task!.id, textOf(status?.parts));
        }
      }
    }
    const text = textOf(status?.parts);
    switch (state) {
      case 'TASK_STATE_COMPLETED':
      case 'TASK_STATE_REJECTED':
      case 'TASK_STATE_FAILED':
      case 'TASK_STATE_CANCELED':
        return { state, text, artifacts };
      case 'TASK_STATE_INPUT_REQUIRED': {
        const reply = answer(text);
        if (reply === undefined) {
          log('decision: the plan has no answer to that; canceling the task');
          o.mark?.(`${purpose}: CancelTask`);
          const canceled = await peer.client.cancelTask({ id: task!.id });
          return { state: canceled.status.state, text, artifacts };
        }
        log(`decision: the stream closed on the question; answering "${reply}" on the same task`);
        message = { messageId: o.ids(), role: 'ROLE_USER', parts: [{ text: reply }], taskId: task!.id, contextId: task!.contextId! };
        o.mark?.(`${purpose}: SendStreamingMessage, the answer`);
        frames = peer.client.sendStreamingMessage({ message });
        break;
      }
      case undefined:
        throw new Error(`${purpose}: the stream ended before it named a task`);
      default:
        // Submitted, working or waiting for approval, and the stream ended: follow the task again.
        log(`decision: the stream ended in ${state}; subscribing to the task`);
        o.mark?.(`${purpose}: SubscribeToTask`);
        frames = peer.client.subscribeToTask({ id: task!.id });
    }
  }
}
