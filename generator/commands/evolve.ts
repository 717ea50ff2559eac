/**
 * @module commands/evolve — `wiregen pin` and `wiregen diff` (schema evolution: generator/evolve/; a user's own
 * spec: generator/evolve/spec/).
 */
import { DIFF_HELP, PIN_HELP } from '../evolve/help.ts';
import type { Command } from './command.ts';

export const pin: Command = {
  summary: [['pin', "pin a revision's files (schemas/, pins.json with sha256), start its manifest"]],
  help: PIN_HELP,
  async run(args, { out, base }) {
    return (await import('../evolve/commands.ts')).runPin(args, out, base);
  },
};

export const diff: Command = {
  summary: [['diff', 'what changed for clients: your spec against a commit (or two specs, two pins); exit 100 when breaking']],
  help: DIFF_HELP,
  async run(args, { out, base }) {
    return (await import('../evolve/commands.ts')).runDiff(args, out, base);
  },
};
