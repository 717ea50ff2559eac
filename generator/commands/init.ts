/**
 * @module commands/init — `wiregen init [dir] [--agent]`: a new project with a spec, its behaviours and
 * the scripts around them (init/scaffold.ts).
 */
import { relative, resolve } from 'node:path';
import { EXIT_OK } from '../errors.ts';
import { parseCommand } from './args.ts';
import { type Command, usageError } from './command.ts';

const HELP = `Usage: wiregen init [dir] [--agent]

Writes a new project into <dir> (default: the working directory), which must be new or empty:
  server.yaml         the spec of an MCP server: identity, capabilities, a tool, a resource, a prompt
  src/server.ts       its behaviours, one typed function each, passed to the generated createServer
  package.json        scripts generate (src/generated/ from the spec), build, typecheck, start (the build),
                      dev (the sources, through tsx); dependencies on @wiregen/runtime and the newest MCP pin's
                      package, wiregen as a dev dependency
  tsconfig.json       strict TypeScript (NodeNext)
  .gitignore
With --agent, an A2A agent instead: agent.yaml (its card) and src/agent.ts (its executor, passed to
createAgent), served over HTTP on 127.0.0.1:41241.

Then: npm install, npm run build, npm start.

Options:
  --agent      an A2A agent instead of an MCP server
  -h, --help   this help`;

export const init: Command = {
  summary: [['init [dir] [--agent]', 'write a new project: a spec, its behaviours, package.json and tsconfig.json']],
  help: HELP,
  async run(args, { out, base }) {
    const { values, positionals } = parseCommand('init', args, { agent: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
    if (values.help) return (out(HELP), EXIT_OK);
    if (positionals.length > 1) throw usageError('init', `one folder at a time; also given: ${positionals.slice(1).join(' ')}`);
    const cwd = base.root ?? process.cwd();
    const dir = resolve(cwd, positionals[0] ?? '.');
    const shown = relative(cwd, dir) || '.';
    const { initProject } = await import('../init/scaffold.ts');
    const files = initProject(dir, values.agent ? 'agent' : 'server', shown);
    out(`wrote ${shown}/: ${files.join(', ')}`);
    out(`next: ${shown === '.' ? '' : `cd ${shown} && `}npm install && npm run build && npm start`);
    return EXIT_OK;
  },
};
