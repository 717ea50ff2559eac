/**
 * @module evolve/drift — the semantic summary `generate --check` prints when generated/ is stale: for each
 * stale package, what changed in its pin's inputs since the commit that last wrote the package (the drift,
 * in `wiregen diff` terms), or that the inputs did not change and the generator's output did.
 */
import { createContext, type Context } from '../context.ts';
import { InputError } from '../errors.ts';
import { loadPins } from '../load/pins.ts';
import { diffPinRecords, diffPins, loadForDiff, samePinnedInputs } from './diff.ts';
import { isBreaking, type Finding } from './findings.ts';
import { inputsAt, lastCommitOf, workTreeOf, type InputsAtCommit } from './git.ts';
import { countsLine } from './report.ts';

/** How many findings a summary line names. */
const NAMED = 4;

function brief(findings: readonly Finding[]): string {
  const shown = [...findings.filter(isBreaking), ...findings.filter((f) => !isBreaking(f))].slice(0, NAMED);
  const more = findings.length - shown.length;
  return `${countsLine(findings)}: ${shown.map((f) => `${f.rule} ${f.subject}`).join('; ')}${more > 0 ? `; … ${more} more ('wiregen diff --against <commit>' lists them)` : ''}`;
}

/** Summary lines for the stale files `stale` (paths relative to generated/). */
export function driftSummary(ctx: Context, stale: readonly string[]): string[] {
  const root = ctx.options.root;
  const current = loadPins(ctx);
  const ids = [...new Set(stale.map((p) => p.split('/')[0]!))].filter((id) => current.some((p) => p.id === id));
  if (ids.length === 0) return [];
  if (!workTreeOf(root)) return ['Semantic summary: none (not a git work tree, so there is no earlier generation to compare with).'];
  const lines = ['What changed in the inputs since each stale package was last generated:'];
  const opened = new Map<string, InputsAtCommit>();
  try {
    for (const id of ids) {
      const commit = lastCommitOf(root, `generated/${id}`);
      if (!commit) {
        lines.push(`  ${id}: a new pin, not generated before`);
        continue;
      }
      let at = opened.get(commit);
      if (!at) opened.set(commit, (at = inputsAt(root, commit)));
      const was = at.pins?.find((p) => p.id === id);
      const now = current.find((p) => p.id === id)!;
      const label = `${id} (generated at ${commit.slice(0, 7)})`;
      if (!was) {
        lines.push(`  ${label}: not among that commit's pins`);
        continue;
      }
      const then = createContext({ root: at.root, log: ctx.options.log });
      if (samePinnedInputs(then, was, ctx, now)) {
        lines.push(`  ${label}: inputs unchanged, so the generator's output changed`);
        continue;
      }
      try {
        const [a] = loadForDiff(then, [id]);
        const [b] = loadForDiff(ctx, [id]);
        lines.push(`  ${label}: ${brief([...diffPinRecords(was, now, 'schemas/pins.json'), ...diffPins(a!, b!)])}`);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        lines.push(`  ${label}: cannot compare (${e.message.split('\n')[0]})`);
      }
    }
  } finally {
    for (const at of opened.values()) at.dispose();
  }
  return lines;
}
