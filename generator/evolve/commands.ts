/**
 * @module evolve/commands — the `wiregen pin` and `wiregen diff` commands: their options and help, wired
 * to evolve/pin.ts and evolve/diff.ts. generator/cli.ts dispatches here.
 */
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createContext, type Context, type Options } from '../context.ts';
import { EXIT_OK, fail } from '../errors.ts';
import type { LoadedPin } from '../load/index.ts';
import { display, loadPins } from '../load/pins.ts';
import { diffPinRecords, diffPins, loadForDiff, samePinnedInputs } from './diff.ts';
import { inputsAt, resolveCommit } from './git.ts';
import { exitCode, formatJson, formatText, type Comparison } from './report.ts';
import { DIFF_HELP, PIN_HELP } from './help.ts';
import { isSpecPath, specsAgainst, twoSpecs } from './spec/run.ts';
import { parseCommand } from '../commands/args.ts';

type Out = (line: string) => void;

export async function runPin(args: string[], out: Out, base: Partial<Options>): Promise<number> {
  const { values, positionals } = parseCommand('pin', args, {
    from: { type: 'string' },
    repo: { type: 'string' },
    commit: { type: 'string' },
    tag: { type: 'string' },
    path: { type: 'string' },
    date: { type: 'string' },
    update: { type: 'boolean' },
    draft: { type: 'boolean' },
    check: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (out(PIN_HELP), EXIT_OK);
  const pinsFile = createContext(base).options.pinsFile;
  if (!existsSync(pinsFile))
    fail({
      file: 'wiregen pin',
      message: `pins a protocol revision into the wiregen repository's schemas/ (no ${display(createContext(base), pinsFile)} here); a project uses the published packages instead: npm install @wiregen/<protocol>-<revision>, e.g. @wiregen/mcp-2026-07-28`,
    });
  if (positionals.length !== 1 || !values.from)
    fail({ file: 'wiregen pin', message: "needs one <pin-id> and --from <dir-or-file> (see 'wiregen pin --help')" });
  const { runPinning } = await import('./pin.ts');
  const ctx = createContext({ ...base, log: out });
  const pick = <K extends string>(k: K, v: string | boolean | undefined) => (v === undefined ? {} : ({ [k]: v } as Record<K, typeof v>));
  const { lines, code } = runPinning(ctx, {
    id: positionals[0]!,
    from: resolve(values.from),
    ...pick('repo', values.repo),
    ...pick('commit', values.commit),
    ...pick('tag', values.tag),
    ...pick('path', values.path),
    ...pick('date', values.date),
    update: values.update ?? false,
    draft: values.draft ?? false,
    check: values.check ?? false,
  });
  lines.forEach((l) => out(l));
  return code;
}

/** `file` → `file@ref`, for the findings located in the committed version. */
function relabel(loaded: LoadedPin, ref: string): LoadedPin {
  const at = (file: string) => `${file}@${ref}`;
  return {
    ...loaded,
    bundle: { ...loaded.bundle, file: at(loaded.bundle.file) },
    manifest: { ...loaded.manifest, file: at(loaded.manifest.file) },
    ...(loaded.proto ? { proto: { ...loaded.proto, file: at(loaded.proto.file) } } : {}),
  };
}

/** The working tree's pins (or `only`) against the pins of `ref`. */
function against(ctx: Context, ref: string, only: readonly string[]): Comparison[] {
  const commit = resolveCommit(ctx.options.root, ref);
  const now = loadPins(ctx);
  const old = inputsAt(ctx.options.root, commit);
  try {
    const was = old.pins ?? [];
    const ids = [...new Set([...was.map((p) => p.id), ...now.map((p) => p.id)])];
    for (const id of only)
      if (!ids.includes(id)) fail({ file: display(ctx, ctx.options.pinsFile), message: `no pin ${id} here or at ${ref} (pins: ${ids.join(', ')})` });
    const oldCtx = createContext({ root: old.root, log: ctx.options.log });
    return ids
      .filter((id) => only.length === 0 || only.includes(id))
      .map((id): Comparison => {
        const a = was.find((p) => p.id === id);
        const b = now.find((p) => p.id === id);
        const findings = diffPinRecords(a, b, display(ctx, ctx.options.pinsFile));
        if (a && b && !samePinnedInputs(oldCtx, a, ctx, b)) {
          const [x] = loadForDiff(oldCtx, [id]);
          const [y] = loadForDiff(ctx, [id]);
          findings.push(...diffPins(relabel(x!, ref), y!));
        }
        return { from: `${id}@${ref}`, to: id, findings };
      });
  } finally {
    old.dispose();
  }
}

export async function runDiff(args: string[], out: Out, base: Partial<Options>): Promise<number> {
  const { values, positionals } = parseCommand('diff', args, {
    against: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (out(DIFF_HELP), EXIT_OK);
  const ctx = createContext({ ...base, log: out });
  const root = ctx.options.root;
  // The wiregen repository compares pins; any project compares its own spec (evolve/spec/).
  const repository = existsSync(ctx.options.pinsFile);
  const specs = positionals.filter(isSpecPath);
  if (specs.length && specs.length !== positionals.length)
    fail({ file: 'wiregen diff', message: `give pin ids or spec files, not both (${positionals.join(' ')})` });
  if (values.against === undefined && positionals.length !== 2)
    fail({
      file: 'wiregen diff',
      message: `needs ${repository ? 'two pin ids, ' : ''}two spec files, or --against <git-ref> (see 'wiregen diff --help')`,
    });
  let comparisons: Comparison[];
  if (values.against !== undefined)
    comparisons = specs.length || !repository ? specsAgainst(root, values.against, specs) : against(ctx, values.against, positionals);
  else if (specs.length) comparisons = twoSpecs(root, specs[0]!, specs[1]!);
  else if (!repository)
    fail({
      file: 'wiregen diff',
      message: `${positionals.join(' ')}: comparing two pins needs the wiregen repository's schemas/pins.json; here, compare your spec with a commit (wiregen diff --against HEAD) or two spec files`,
    });
  else {
    const [idA, idB] = positionals as [string, string];
    const pins = loadPins(ctx);
    const pa = pins.find((p) => p.id === idA);
    const pb = pins.find((p) => p.id === idB);
    if (pa && pb && pa.protocol !== pb.protocol)
      fail({
        file: display(ctx, ctx.options.pinsFile),
        message: `${idA} is ${pa.protocol} and ${idB} is ${pb.protocol}: diff compares two pins of one protocol`,
      });
    const [a, b] = loadForDiff(ctx, [idA, idB]);
    comparisons = [{ from: idA, to: idB, findings: diffPins(a!, b!) }];
  }
  if (values.json) out(formatJson(comparisons));
  else formatText(comparisons).forEach((l) => out(l));
  return exitCode(comparisons);
}
