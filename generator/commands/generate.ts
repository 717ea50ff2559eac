/**
 * @module commands/generate — `wiregen generate`: the repository's generated/ from schemas/ (every pin and
 * every repository spec, or those `--only` names), or one spec's module (`--spec <file> --out <dir>`), in any
 * project. `--check` writes nothing and exits 1 listing what differs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createContext, GENERATOR_NAME, type Context } from '../context.ts';
import { EXIT_DIFFERENT, EXIT_OK, fail } from '../errors.ts';
import type { FileSet } from '../format/index.ts';
import { parseCommand } from './args.ts';
import { type Command, type Io, usageError } from './command.ts';

const HELP = `Usage: wiregen generate [--check] [--only <pin-or-sample>]...
       wiregen generate --spec <file> --out <dir> [--pin <pin-id>] [--check]

In the wiregen repository (no --spec): reads schemas/pins.json, verifies every pinned file's sha256, loads
each pin's schema and method manifest, cross-checks them, and writes one package per pin into generated/,
with a module per repository spec (schemas/samples/*.yaml, schemas/samples/a2a/*.yaml) in
generated/samples/ (atomically: a failed run leaves it as it was).

With --spec, in any project: reads one spec (YAML or JSON) describing an MCP server (serverInfo,
capabilities, tools, resources, resource templates, prompts) or an A2A agent (a card), checks it against
the spec format and its items against the pin's definitions (Tool, Resource, ResourceTemplate, Prompt;
AgentCard), and writes its module into <dir>: index.ts (the spec as typed data, the Behaviours type and
createServer, or createAgent) and validators.ts (the tools' precompiled validators). <dir> must be new,
empty, or hold only files wiregen wrote.

Options:
  --check                write nothing; compare and exit 1 listing the files that differ; with --spec, also
                         what changed for clients since the module was generated, as 'wiregen diff' reports
                         it (the spec the module holds against the spec now; still exit 1, not 100: the
                         module is stale either way, and 'wiregen diff' is the gate for breaking changes)
  --only <id>            only this pin or repository spec (repeatable), e.g. --only mcp-2026-07-28, --only golden
  --spec <file>          the spec to generate (relative to the working directory)
  --out <dir>            where its module goes, e.g. src/generated
  --pin <pin-id>         the pin to check it against and import types from (default: the newest MCP pin for
                         a server, the A2A pin for an agent), e.g. --pin mcp-2025-11-25
  -h, --help             this help

Examples:
  wiregen generate --spec server.yaml --out src/generated
  wiregen generate --only golden --check`;

/** The files of one folder of a file set, with paths relative to it. */
function subtree(files: FileSet, folder: string): FileSet {
  const prefix = `${folder}/`;
  return new Map([...files].filter(([p]) => p.startsWith(prefix)).map(([p, t]) => [p.slice(prefix.length), t]));
}

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(2);

async function generateRepository(ctx: Context, check: boolean, out: (l: string) => void): Promise<number> {
  // Loaded only for this command: `serve` must start fast, without prettier or the type emitter.
  const { diffTree, generateAll, onlyFolders, writeTree } = await import('../generate.ts');
  const t0 = performance.now();
  const { files, reports } = await generateAll(ctx);
  // With --only, each folder is compared or replaced on its own; otherwise the whole of generated/.
  const folders = onlyFolders(ctx);
  const trees: [string, FileSet][] = folders ? folders.map((f) => [f, subtree(files, f)]) : [['', files]];
  if (check) {
    const differ = trees.flatMap(([f, set]) => diffTree(join(ctx.options.generatedDir, f), set).map((p) => (f ? `${f}/${p}` : p)));
    if (differ.length) {
      out(`generated/ is stale: ${differ.length} file(s) differ from what the generator produces (${seconds(t0)} s):`);
      (await import('../evolve/drift.ts')).driftSummary(ctx, differ).forEach((l) => out(l));
      differ.forEach((p) => out(`  generated/${p}`));
      out("Run 'npm run generate' and commit the result.");
      return EXIT_DIFFERENT;
    }
    out(`generated/ is up to date: ${reports.length} package(s), ${files.size} files checked in ${seconds(t0)} s`);
    return EXIT_OK;
  }
  for (const [f, set] of trees) writeTree(join(ctx.options.generatedDir, f), set);
  out(`wrote generated/: ${reports.length} package(s), ${files.size} files in ${seconds(t0)} s`);
  return EXIT_OK;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

/** `--out` is ours to replace: absent, empty, or holding only files wiregen wrote (they start with its header). */
function assertOurs(dir: string, shown: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) fail({ file: shown, message: 'is not a folder (--out names the folder the module is written into)' });
  const foreign = listFiles(dir).filter((f) => !readFileSync(join(dir, f), 'utf8').startsWith(`// Generated by ${GENERATOR_NAME} `));
  if (foreign.length)
    fail({
      file: shown,
      message: `holds files wiregen did not write (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}); --out must be a folder of its own`,
    });
}

async function generateOne(
  ctx: Context,
  spec: string,
  outDir: string,
  pin: string | undefined,
  check: boolean,
  out: (l: string) => void,
): Promise<number> {
  const { generateSpec } = await import('../spec/generate.ts');
  const { diffTree, writeTree } = await import('../format/index.ts');
  const t0 = performance.now();
  const dir = resolve(ctx.options.root, outDir);
  const shown = relative(ctx.options.root, dir) || '.';
  const { spec: loaded, files } = await generateSpec(ctx, spec, pin);
  const what = `${loaded.kind === 'server' ? 'MCP server' : 'A2A agent'} ${loaded.name}, ${loaded.pin.id}`;
  if (check) {
    const differ = diffTree(dir, files);
    if (differ.length) {
      out(`${shown} is stale: ${differ.length} file(s) differ from what ${loaded.file} generates (${seconds(t0)} s):`);
      differ.forEach((p) => out(`  ${join(shown, p)}`));
      // What changed for clients since then: the module's own copy of the spec against the spec now.
      (await import('../evolve/spec/since.ts')).sinceGenerated(dir, shown, loaded).forEach((l) => out(l));
      return EXIT_DIFFERENT;
    }
    out(`${shown} is up to date (${what})`);
    return EXIT_OK;
  }
  assertOurs(dir, shown);
  writeTree(dir, files);
  out(`wrote ${shown}: ${files.size} file(s) (${what}) in ${seconds(t0)} s`);
  return EXIT_OK;
}

export const generate: Command = {
  summary: [
    ['generate', 'write generated/ from schemas/ (pins, schemas, manifests, repository specs)'],
    ['generate --check', 'write nothing; exit 1 and list the files when generated/ is stale'],
    ['generate --spec <f> --out <d>', "write one spec's module (an MCP server or an A2A agent), in any project"],
  ],
  help: HELP,
  async run(args: string[], { out, base }: Io) {
    const { values } = parseCommand(
      'generate',
      args,
      {
        check: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        spec: { type: 'string' },
        out: { type: 'string' },
        pin: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      false,
    );
    if (values.help) return (out(HELP), EXIT_OK);
    const check = values.check ?? false;
    if (values.spec === undefined) {
      if (values.out !== undefined || values.pin !== undefined)
        throw usageError('generate', `--${values.out !== undefined ? 'out' : 'pin'} goes with --spec <file>`);
      const ctx = createContext({ ...base, log: out, ...(values.only ? { only: values.only } : {}) });
      if (!existsSync(ctx.options.pinsFile))
        throw usageError(
          'generate',
          `no ${relative(ctx.options.root, ctx.options.pinsFile)} here: in a project of your own, give --spec <file> --out <dir>`,
        );
      return generateRepository(ctx, check, out);
    }
    if (values.only) throw usageError('generate', '--only selects pins and specs of the repository; it does not go with --spec');
    if (values.out === undefined) throw usageError('generate', '--spec needs --out <dir>, the folder its module is written into');
    return generateOne(createContext({ ...base, log: out }), values.spec, values.out, values.pin, check, out);
  },
};
