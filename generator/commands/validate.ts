/**
 * @module commands/validate — `wiregen validate <protocol>@<revision> <Def> <file.json>…`.
 */
import { createContext } from '../context.ts';
import { EXIT_BAD_INPUT, EXIT_OK } from '../errors.ts';
import { parseCommand } from './args.ts';
import type { Command } from './command.ts';

const HELP = `Usage: wiregen validate <protocol>@<revision> <Def> <file.json>...

Validates each file against the $def <Def> of that revision with the generated validators, printing each
error as '<file> <json-pointer>: <reason>'.

Examples:
  wiregen validate mcp@2026-07-28 CallToolRequest request.json
  wiregen validate a2a@1.0 SendMessageRequest params.json

Exit: 0 all valid, 1 some file invalid, 2 unknown revision or $def, or a file that is not JSON.`;

export const validate: Command = {
  summary: [['validate', 'validate JSON files against a definition of one protocol revision']],
  help: HELP,
  async run(args, { out, base }) {
    const { values, positionals } = parseCommand('validate', args, { help: { type: 'boolean', short: 'h' } });
    if (values.help) return (out(HELP), EXIT_OK);
    const [spec, def, ...files] = positionals;
    if (!spec || !def || files.length === 0) {
      out(HELP);
      return EXIT_BAD_INPUT;
    }
    const { validateFiles } = await import('../validate.ts');
    return validateFiles(createContext(base), spec, def, files, out);
  },
};
