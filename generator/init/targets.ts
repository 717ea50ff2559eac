/**
 * @module init/targets — where a project of `wiregen init --target` runs: Node (the default: `wiregen serve`),
 * Cloudflare Workers (`wrangler dev`, `wrangler deploy`), Deno (`Deno.serve`, deno.json tasks) or Bun
 * (`Bun.serve`). Each target adds its entry file and configuration to the files every project has (the spec,
 * package.json for `npm install` and `npm run generate`, which stays a Node command, tsconfig.json for `tsc`).
 */
import { randomBytes } from 'node:crypto';
import { handshakeRevisions, statelessRevisions } from '@wiregen/revisions';
import type { SpecKind } from '../spec/pins.ts';

export const TARGETS = ['node', 'workers', 'deno', 'bun'] as const;
export type Target = (typeof TARGETS)[number];

export const isTarget = (value: string): value is Target => (TARGETS as readonly string[]).includes(value);

/**
 * The wrangler the Workers target lists (the version on npm when this was written; it needs Node ≥ 22), and
 * the compatibility date its wrangler.toml names (one workerd 1.20260730 supports).
 */
export const WRANGLER = '4.164.0';
const COMPATIBILITY_DATE = '2026-07-01';
/** The MCP revision a Worker serves: the stateless era (handshake sessions would live in one isolate). */
const WORKER_REVISION: string = '2026-07-28';

/** What a target changes in a project: files besides the spec, scripts, dev dependencies, and the next steps. */
export interface TargetFiles {
  /** Files by path: templates (under templates/) to fill, or text to write as is. */
  readonly files: ReadonlyArray<readonly [path: string, from: { template: string } | { text: string }]>;
  readonly scripts: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly engines?: Readonly<Record<string, string>>;
  /** Whether the spec names src/<module>.ts as its `main` (what `wiregen serve <spec>` runs). */
  readonly main: boolean;
  /** Lines added to .gitignore. */
  readonly ignore: readonly string[];
  /** The commands after `wiregen init`, and what to know about them. */
  readonly next: string;
  readonly notes: readonly string[];
}

const wranglerToml = (name: string, kind: SpecKind) => {
  const lines = [
    `# ${name} on Cloudflare Workers: \`npm run dev\` (wrangler dev, local), \`npm run deploy\` (wrangler deploy).`,
    '# No nodejs_compat: the runtime uses Web APIs only (docs/deployment.md of wiregen).',
    `name = "${name}"`,
    'main = "src/worker.ts"',
    `compatibility_date = "${COMPATIBILITY_DATE}"`,
  ];
  if (kind === 'server')
    lines.push(
      '',
      '# The Host names the server answers (its DNS name once deployed).',
      '[vars]',
      'MCP_ALLOWED_HOSTS = "localhost,127.0.0.1"',
      '',
      `# The MCP revisions the Worker does not serve (it serves ${WORKER_REVISION}), left out of the bundle.`,
      '[alias]',
      ...[...handshakeRevisions, ...statelessRevisions].filter((r) => r !== WORKER_REVISION).map((r) => `"@wiregen/mcp-${r}" = "./src/unbundled.js"`),
    );
  return `${lines.join('\n')}\n`;
};

/** The files, scripts and notes of `target` for a project of `kind` named `name` (its spec's file is `spec`). */
export function targetFiles(target: Target, kind: SpecKind, name: string, spec: string): TargetFiles {
  const module = kind === 'server' ? 'server' : 'agent';
  const behaviours = [`src/${module}.ts`, { template: `${kind}/src/${module}.ts.tmpl` }] as const;
  const generate = `npm install && npm run generate`;
  switch (target) {
    case 'node':
      return {
        files: [behaviours],
        scripts: {},
        devDependencies: {},
        main: true,
        ignore: [],
        next: 'npm install && npm run build && npm start',
        notes: [],
      };
    case 'workers':
      return {
        files: [
          ...(kind === 'agent' ? [behaviours] : []),
          ['src/worker.ts', { template: `workers/${kind}-worker.ts.tmpl` }],
          ...(kind === 'server'
            ? ([
                ['src/unbundled.js', { template: 'workers/unbundled.js.tmpl' }],
                // The requestState secret of `wrangler dev` (a deployed Worker's: `wrangler secret put MCP_REQUEST_STATE_SECRET`).
                ['.dev.vars', { text: `MCP_REQUEST_STATE_SECRET=${randomBytes(32).toString('base64')}\n` }],
              ] as const)
            : []),
          ['wrangler.toml', { text: wranglerToml(name, kind) }],
        ],
        scripts: { dev: 'wrangler dev', deploy: 'wrangler deploy' },
        devDependencies: { wrangler: WRANGLER },
        engines: { node: '>=22' },
        main: kind === 'agent',
        ignore: ['.wrangler/', '.dev.vars'],
        next: `${generate} && npm run dev`,
        notes: [
          `wrangler ${WRANGLER} needs Node 22 or newer; \`npm run generate\` (src/generated/ from ${spec}) is a Node command.`,
          ...(kind === 'server' ? ['Before `npm run deploy`: `npx wrangler secret put MCP_REQUEST_STATE_SECRET` (32 random bytes, base64).'] : []),
        ],
      };
    case 'deno':
      return {
        files: [
          behaviours,
          ['src/main.ts', { template: `deno/${kind}-main.ts.tmpl` }],
          ['src/deno.d.ts', { template: 'deno/deno.d.ts.tmpl' }],
          ['deno.json', { text: denoJson() }],
        ],
        scripts: {},
        devDependencies: {},
        main: true,
        ignore: [],
        next: `${generate} && deno task dev`,
        notes: [`Deno 2 runs src/main.ts from node_modules (npm install); \`npm run generate\` (src/generated/ from ${spec}) is a Node command.`],
      };
    case 'bun':
      return {
        files: [behaviours, ['src/main.ts', { template: `bun/${kind}-main.ts.tmpl` }], ['src/bun.d.ts', { template: 'bun/bun.d.ts.tmpl' }]],
        scripts: { dev: 'bun --watch src/main.ts', start: 'bun src/main.ts' },
        devDependencies: {},
        main: true,
        ignore: [],
        next: `${generate} && bun run dev`,
        notes: [`\`npm run generate\` (src/generated/ from ${spec}) is a Node command.`],
      };
  }
}

/**
 * deno.json: the tasks with only the permissions a server needs (the network on the loopback address it
 * listens on, its environment, the project's files, node_modules included), packages from node_modules as
 * `npm install` left them, and sloppy imports: src/ imports `./generated/index.js`, which is a `.ts` file
 * (https://docs.deno.com/runtime/reference/cli/unstable_flags/#--unstable-sloppy-imports).
 */
function denoJson(): string {
  const run = 'deno run --sloppy-imports --allow-net=127.0.0.1 --allow-env --allow-read=. src/main.ts';
  const json = { nodeModulesDir: 'manual', tasks: { dev: run.replace('deno run', 'deno run --watch'), start: run } };
  return `${JSON.stringify(json, null, 2)}\n`;
}
