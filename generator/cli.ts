/**
 * @module cli — the `wiregen` command: parses arguments and wires the passes. Nothing else lives here.
 */
import { parseArgs } from 'node:util';
import { createContext, type Options } from './context.ts';
import { EXIT_BAD_INPUT, EXIT_DIFFERENT, EXIT_OK, formatDiagnostic, InputError } from './errors.ts';
import type { FileSet } from './format/index.ts';
import { join } from 'node:path';

const HELP: Record<string, string> = {
  main: `wiregen: generates typed messages, validators and dispatch tables for MCP and A2A from the pinned schemas.

Usage: wiregen <command> [options]

Commands:
  generate            write generated/ from schemas/ (pins, schemas, manifests)
  generate --check    write nothing; exit 1 and list the files when generated/ is stale
  validate            validate JSON files against a definition of one protocol revision
  serve               run a fixture as an MCP server (stdio)
  pin                 pin a revision's files (schemas/, pins.json with sha256), start its manifest
  diff                what changed between two pins, or against a commit; exit 100 when breaking

Run 'wiregen <command> --help' for a command's options.
Exit codes: 0 ok, 1 differences or invalid data, 2 bad input (the error names the file and location).`,
  generate: `Usage: wiregen generate [--check] [--only <pin-id>]...

Reads schemas/pins.json, verifies every pinned file's sha256, loads each pin's schema and method manifest,
cross-checks them, and writes one package per pin into generated/ (atomically: a failed run leaves it as it was).

Options:
  --check           write nothing; compare with generated/ and exit 1 listing the files that differ
  --only <pin-id>   only this pin (repeatable), e.g. --only mcp-2026-07-28
  -h, --help        this help`,
  validate: `Usage: wiregen validate <protocol>@<revision> <Def> <file.json>...

Validates each file against the $def <Def> of that revision with the generated validators, printing each
error as '<file> <json-pointer>: <reason>'.

Examples:
  wiregen validate mcp@2026-07-28 CallToolRequest request.json
  wiregen validate a2a@1.0 SendMessageRequest params.json

Exit: 0 all valid, 1 some file invalid, 2 unknown revision or $def, or a file that is not JSON.`,
  serve: `Usage: wiregen serve <fixture> (--stdio [--parse-errors] [--max-line-bytes <n>] | --http <port>)
                     [--handlers <set>] [--notifications]

Runs a fixture (schemas/fixtures/<fixture>.yaml, behaviours in fixtures/<fixture>.ts) as an MCP server that
speaks both eras: the handshake era (initialize, 2024-11-05 to 2025-11-25) and 2026-07-28. Newline-delimited
JSON on stdin/stdout; stdout carries protocol messages only, diagnostics go to stderr. Exits 0 when stdin closes.

Options:
  --stdio                 serve on stdin/stdout
  --http <port>           serve Streamable HTTP on 127.0.0.1:<port> (0: any free port) at /mcp; prints
                          {"conformanceReady":true,"url":"http://127.0.0.1:<port>/mcp"} when listening and
                          exits cleanly when stdin closes
  --parse-errors          answer a line that is not JSON with -32700 (JSON-RPC 2.0); by default such a
                          line gets no reply, as the official MCP SDK's stdio server does
  --max-line-bytes <n>    longest line accepted (default 4 MiB); a longer one is answered -32600, id null
  --handlers <set>        a handler set the fixture offers (default: base), e.g. golden --handlers extended
  --notifications         serve as a transport that can deliver change notifications: listChanged and
                          resources subscribe become true in both eras
  -h, --help              this help

Examples:
  wiregen serve fixture-server --stdio
  wiregen serve fixture-server --http 0`,
};

/** The files of one pin's folder, with paths relative to it. */
function subtree(files: FileSet, id: string): FileSet {
  const prefix = `${id}/`;
  return new Map([...files].filter(([p]) => p.startsWith(prefix)).map(([p, t]) => [p.slice(prefix.length), t]));
}

async function runGenerate(args: string[], out: (l: string) => void, base: Partial<Options>): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { check: { type: 'boolean' }, only: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) return (out(HELP['generate']!), EXIT_OK);
  // Each command loads only what it needs: `serve` must start fast, without prettier or the type emitter.
  const { diffTree, generateAll, writeTree } = await import('./generate.ts');
  const t0 = performance.now();
  const ctx = createContext({ ...base, log: out, ...(values.only ? { only: values.only } : {}) });
  const { files, reports } = await generateAll(ctx);
  const seconds = ((performance.now() - t0) / 1000).toFixed(2);
  // With --only, each pin's folder is compared or replaced on its own; otherwise the whole of generated/.
  const trees: [string, FileSet][] = ctx.options.only ? ctx.options.only.map((id) => [id, subtree(files, id)]) : [['', files]];
  if (values.check) {
    const differ = trees.flatMap(([id, set]) => diffTree(join(ctx.options.generatedDir, id), set).map((p) => (id ? `${id}/${p}` : p)));
    if (differ.length) {
      out(`generated/ is stale: ${differ.length} file(s) differ from what the generator produces (${seconds} s):`);
      (await import('./evolve/drift.ts')).driftSummary(ctx, differ).forEach((l) => out(l));
      differ.forEach((p) => out(`  generated/${p}`));
      out("Run 'npm run generate' and commit the result.");
      return EXIT_DIFFERENT;
    }
    out(`generated/ is up to date: ${reports.length} package(s), ${files.size} files checked in ${seconds} s`);
    return EXIT_OK;
  }
  for (const [id, set] of trees) writeTree(join(ctx.options.generatedDir, id), set);
  out(`wrote generated/: ${reports.length} package(s), ${files.size} files in ${seconds} s`);
  return EXIT_OK;
}

async function runServe(args: string[], out: (l: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      stdio: { type: 'boolean' },
      http: { type: 'string' },
      'parse-errors': { type: 'boolean' },
      handlers: { type: 'string' },
      notifications: { type: 'boolean' },
      'max-line-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return (out(HELP['serve']!), EXIT_OK);
  const [fixture] = positionals;
  const maxLineBytes = values['max-line-bytes'] === undefined ? undefined : Number(values['max-line-bytes']);
  const port = values.http === undefined ? undefined : Number(values.http);
  const badPort = port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536);
  if (
    !fixture ||
    positionals.length > 1 ||
    (values.stdio ?? false) === (port !== undefined) ||
    badPort ||
    (maxLineBytes !== undefined && !(Number.isInteger(maxLineBytes) && maxLineBytes > 0))
  ) {
    process.stderr.write(`${HELP['serve']!}\n`);
    return EXIT_BAD_INPUT;
  }
  // The runtime is loaded only for this command: generating never depends on it.
  const { serveStdio, serveHttp } = await import('../runtime/serve.ts');
  const choice = { ...(values.handlers ? { handlers: values.handlers } : {}), notifications: values.notifications ?? false };
  if (port !== undefined) {
    await serveHttp(fixture, port, choice);
    return EXIT_OK;
  }
  await serveStdio(fixture, { ...choice, parseErrors: values['parse-errors'] ?? false, ...(maxLineBytes ? { maxLineBytes } : {}) });
  return EXIT_OK;
}

async function runValidate(args: string[], out: (l: string) => void, base: Partial<Options>): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  if (values.help) return (out(HELP['validate']!), EXIT_OK);
  const [spec, def, ...files] = positionals;
  if (!spec || !def || files.length === 0) {
    out(HELP['validate']!);
    return EXIT_BAD_INPUT;
  }
  const { validateFiles } = await import('./validate.ts');
  return validateFiles(createContext(base), spec, def, files, out);
}

/** Runs the CLI; returns the exit code. Output goes to `out`, problems to `err`; `base` overrides options (tests). */
export async function main(
  argv: readonly string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  err: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  base: Partial<Options> = {},
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'generate':
        return await runGenerate(rest, out, base);
      case 'validate':
        return await runValidate(rest, out, base);
      case 'serve':
        return await runServe(rest, out);
      case 'pin':
        return await (await import('./evolve/commands.ts')).runPin(rest, out, base);
      case 'diff':
        return await (await import('./evolve/commands.ts')).runDiff(rest, out, base);
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        out(HELP['main']!);
        return command === undefined ? EXIT_BAD_INPUT : EXIT_OK;
      default:
        err(`wiregen: unknown command ${JSON.stringify(command)}\n\n${HELP['main']}`);
        return EXIT_BAD_INPUT;
    }
  } catch (e) {
    if (e instanceof InputError) {
      e.diagnostics.forEach((d) => err(formatDiagnostic(d)));
      return e.exitCode;
    }
    if (e instanceof TypeError && 'code' in e && String((e as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      err(`wiregen ${command}: ${e.message}\n\n${HELP[command ?? 'main'] ?? HELP['main']}`);
      return EXIT_BAD_INPUT;
    }
    throw e;
  }
}
