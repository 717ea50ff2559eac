/**
 * @module commands/init — `wiregen init [dir] [--agent] [--target node|workers|deno|bun]`: a new project with
 * a spec, its behaviours and the scripts around them, run where the target runs (init/scaffold.ts, init/targets.ts).
 */
import { relative, resolve } from 'node:path';
import { EXIT_OK } from '../errors.ts';
import { parseCommand } from './args.ts';
import { type Command, usageError } from './command.ts';
import { isTarget, TARGETS } from '../init/targets.ts';

const HELP = `Usage: wiregen init [dir] [--agent] [--target node|workers|deno|bun]

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

--target says where the project runs (default node: the project above). In every target, npm install
installs it and npm run generate (a Node command) writes src/generated/; then:
  workers   src/worker.ts (the server behind mcpFetchHandler, serving MCP 2026-07-28 only, made on the first
            request from env; or the agent behind a2aFetchHandler), wrangler.toml (no nodejs_compat; the
            other MCP revisions aliased to src/unbundled.js), .dev.vars (the requestState secret of
            wrangler dev): npm run dev (wrangler dev, local), npm run deploy. wrangler needs Node >= 22.
  deno      src/main.ts (Deno.serve on 127.0.0.1:$PORT), deno.json (tasks with --allow-net=127.0.0.1
            --allow-env --allow-read=.; packages from node_modules): deno task dev, deno task start
  bun       src/main.ts (Bun.serve on 127.0.0.1:$PORT): npm run dev (bun --watch), npm start (bun)

Options:
  --agent      an A2A agent instead of an MCP server
  --target     node (default), workers, deno or bun
  -h, --help   this help`;

export const init: Command = {
  summary: [['init [dir] [--agent] [--target]', 'write a new project: a spec, its behaviours, package.json and tsconfig.json']],
  help: HELP,
  async run(args, { out, base }) {
    const { values, positionals } = parseCommand('init', args, {
      agent: { type: 'boolean' },
      target: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) return (out(HELP), EXIT_OK);
    if (positionals.length > 1) throw usageError('init', `one folder at a time; also given: ${positionals.slice(1).join(' ')}`);
    const target = values.target ?? 'node';
    if (!isTarget(target)) throw usageError('init', `unknown target ${target}; expected one of: ${TARGETS.join(', ')}`);
    const cwd = base.root ?? process.cwd();
    const dir = resolve(cwd, positionals[0] ?? '.');
    const shown = relative(cwd, dir) || '.';
    const { initProject } = await import('../init/scaffold.ts');
    const { files, next, notes } = initProject(dir, values.agent ? 'agent' : 'server', shown, target);
    out(`wrote ${shown}/: ${files.join(', ')}`);
    out(`next: ${shown === '.' ? '' : `cd ${shown} && `}${next}`);
    for (const note of notes) out(`note: ${note}`);
    return EXIT_OK;
  },
};
