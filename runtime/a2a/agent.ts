/**
 * @module a2a/agent — what an A2A fixture module exports: the agent's card, behaviour and executor, and
 * what it serves over HTTP beside A2A (authentication in front of the protocol, routes of its own).
 */
import type { A2aHttpOptions } from './http.ts';
import type { PushOptions } from './push.ts';
import type { A2aBehaviour, AgentCard, AgentExecutor } from './types.ts';

export interface AgentDefinition {
  readonly name: string;
  readonly card: AgentCard;
  readonly extendedCard?: AgentCard;
  readonly behaviour: A2aBehaviour;
  readonly executor: AgentExecutor;
  /** The webhook hosts push notifications may go to (the spec's `webhooks`); `wiregen serve --webhook-host` adds to them. */
  readonly push?: PushOptions;
  /** HTTP beside A2A: `wiregen serve --http` and the kit apply these. */
  readonly http?: Pick<A2aHttpOptions, 'authenticate' | 'routes'>;
}

export function isAgentDefinition(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && 'card' in value && 'executor' in value;
}
