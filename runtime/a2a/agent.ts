/**
 * @module a2a/agent — what an A2A fixture module exports: the agent's card, behaviour and executor.
 */
import type { A2aBehaviour, AgentCard, AgentExecutor } from './types.ts';

export interface AgentDefinition {
  readonly name: string;
  readonly card: AgentCard;
  readonly extendedCard?: AgentCard;
  readonly behaviour: A2aBehaviour;
  readonly executor: AgentExecutor;
}

export function isAgentDefinition(value: unknown): value is AgentDefinition {
  return typeof value === 'object' && value !== null && 'card' in value && 'executor' in value;
}
