/**
 * @module a2a/agent — what an A2A sample module exports: the agent's card, behaviour and executor, how
 * requests are authenticated (verifiers of the card's schemes, or a check of its own), and routes of its own.
 */
import type { A2aHttpOptions } from './http-options.ts';
import type { PushOptions } from './push.ts';
import type { A2aVerifiers } from './security.ts';
import type { A2aBehaviour, AgentCard, AgentExecutor } from './types.ts';

export interface AgentDefinition {
  readonly name: string;
  readonly card: AgentCard;
  readonly extendedCard?: AgentCard;
  readonly behaviour: A2aBehaviour;
  readonly executor: AgentExecutor;
  /** The webhook hosts push notifications may go to (the spec's `webhooks`); `wiregen serve --webhook-host` adds to them. */
  readonly push?: PushOptions;
  /** Check the credentials the card's security schemes ask for (A2aServerOptions `verifiers`). */
  readonly verifiers?: A2aVerifiers;
  /** HTTP beside A2A (A2aServerOptions `http`): every adapter applies it, and `wiregen serve --http`. */
  readonly http?: Pick<A2aHttpOptions, 'authenticate' | 'routes'>;
}

export function isAgentDefinition(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && 'card' in value && 'executor' in value;
}
