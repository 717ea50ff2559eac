/**
 * @module kit/scenarios — the nineteen scenarios in the order they run (later ones use the agents' state:
 * 11 and 13 read scenario 06's task, 12 lists what 03–10 left on the runner).
 */
import type { Scenario } from '../session.ts';
import { agentCards, blockingTask, messageReply, polling, streaming } from './basics.ts';
import { extendedCard, signedCard } from './cards.ts';
import { errors } from './errors.ts';
import { authRequired, cancel, failed, inputRequired, rejected } from './interrupted.ts';
import { planner } from './planner.ts';
import { push, restBinding } from './push-rest.ts';
import { history, listTasks, resubscribe } from './tasks.ts';

export const SCENARIOS: readonly Scenario[] = [
  agentCards,
  messageReply,
  blockingTask,
  polling,
  streaming,
  inputRequired,
  authRequired,
  rejected,
  failed,
  cancel,
  errors,
  listTasks,
  history,
  resubscribe,
  push,
  restBinding,
  signedCard,
  extendedCard,
  planner,
];
