/**
 * @module emit/validators/dedupe — one function where ajv compiled a definition twice, and no constant nothing reads.
 *
 * ajv compiles a schema once per way it is reached: the export's own `getSchema(<document>#/$defs/Tool)` and
 * a `$ref` to `#/$defs/Tool` from another definition give two schema environments, so the module has two
 * functions for `Tool` (stable names `validate_Tool` and `validate_Tool_2`, standalone.ts) that differ
 * only in the names they call themselves and their callees by: about a third of a pin's validator code,
 * read and parsed on every cold start. A function is dropped in favour of another of the same schema only
 * when the two statements (with the annotations ajv writes after them, `validate_X.evaluated = …`) are the
 * same text once each refers to itself by one placeholder and to every callee by the function kept for it:
 * the same code, so the same verdicts and the same errors; the callers are renamed to the one kept.
 *
 * And a top-level constant no kept statement reads (a schema that only an error object of the accept-path
 * set mentioned, before verdict-only.ts replaced those) is dropped.
 *
 * Everything here works on the parsed module and the rename edits (../js-edit.ts), never on regular
 * expressions over the text. Most copies are not compiled in the first place ({@link shareExportSchemas}); the
 * pass is for the rest.
 */
import type { AnySchema } from 'ajv';
import type coreModule from 'ajv/dist/core.js';
import compileModule from 'ajv/dist/compile/index.js';
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import type { Edit } from '../js-edit.ts';

/**
 * Registers each export's schema (`refs`: name → URI) with `ajv` before anything is compiled, as `getSchema`
 * would register it, so that a `$ref` compiled later finds the export's schema environment (ajv looks a
 * reference up among the instance's registered ones first) and both use one function. Without it, a
 * definition that another one's `$ref` reaches before its own export is compiled twice: a second of a full
 * generate's ajv and parse time, and the copies {@link duplicateFunctions} has to find again. ajv's own
 * resolution, called as `getSchema` calls it (ajv/lib/core.ts).
 */
export function shareExportSchemas(ajv: InstanceType<typeof coreModule.default>, refs: Readonly<Record<string, string>>): void {
  const registered = ajv as unknown as { refs: Record<string, unknown>; schemas: Record<string, unknown>; opts: { schemaId?: '$id' | 'id' } };
  for (const uri of Object.values(refs)) {
    if (registered.refs[uri] !== undefined || registered.schemas[uri] !== undefined) continue;
    const root = new compileModule.SchemaEnv({ schema: {} as AnySchema, schemaId: registered.opts.schemaId });
    const env = compileModule.resolveSchema.call(ajv as never, root, uri);
    if (env) registered.refs[uri] = env;
  }
}

/** A rename edit with the name it renames (as ajv wrote it). */
interface Use {
  readonly start: number;
  readonly end: number;
  readonly old: string;
}

/** What each top-level statement is, for the passes here. */
interface Statements {
  /** The statement index each rename edit lies in, by edit. */
  readonly uses: Use[][];
  /** Function name (ajv's) → the indices of its declaration and its annotations. */
  readonly functions: Map<string, number[]>;
  /** Non-exported `const`/`let`/`var` name (ajv's) → its statement index. */
  readonly constants: Map<string, number>;
}

function classify(source: TS.SourceFile, renameEdits: readonly Edit[]): Statements {
  const uses: Use[][] = source.statements.map(() => []);
  const starts = source.statements.map((s) => s.getStart(source));
  for (const e of renameEdits) {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= e.start) lo = mid;
      else hi = mid - 1;
    }
    uses[lo]!.push({ start: e.start, end: e.end, old: source.text.slice(e.start, e.end) });
  }
  const functions = new Map<string, number[]>();
  const constants = new Map<string, number>();
  source.statements.forEach((statement, i) => {
    if (ts.isFunctionDeclaration(statement) && statement.name) functions.set(statement.name.text, [i]);
    else if (
      ts.isExpressionStatement(statement) &&
      ts.isBinaryExpression(statement.expression) &&
      ts.isPropertyAccessExpression(statement.expression.left) &&
      ts.isIdentifier(statement.expression.left.expression)
    )
      functions.get(statement.expression.left.expression.text)?.push(i);
    else if (ts.isVariableStatement(statement) && !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const [d, ...more] = statement.declarationList.declarations;
      if (d && !more.length && ts.isIdentifier(d.name)) constants.set(d.name.text, i);
    }
  });
  return { uses, functions, constants };
}

/**
 * The functions to drop (ajv's name → ajv's name of the one kept for it), among those that `wanted` (ajv's
 * function name → the stable name it wants, before any suffix) gives one name.
 */
export function duplicateFunctions(source: TS.SourceFile, renameEdits: readonly Edit[], wanted: ReadonlyMap<string, string>): Map<string, string> {
  const { uses, functions } = classify(source, renameEdits);
  const byWanted = new Map<string, string[]>();
  for (const name of functions.keys()) {
    const want = wanted.get(name);
    if (want !== undefined) byWanted.set(want, [...(byWanted.get(want) ?? []), name]);
  }
  const candidates = [...byWanted.values()].filter((names) => names.length > 1);
  const kept = new Map<string, string>();
  const keptFor = (name: string) => kept.get(name) ?? name;
  const normalized = (name: string): string =>
    functions
      .get(name)!
      .map((i) => {
        const statement = source.statements[i]!;
        let at = statement.getStart(source);
        let out = '';
        for (const u of uses[i]!) {
          out += `${source.text.slice(at, u.start)}${u.old === name ? '\u0000' : keptFor(u.old)}`;
          at = u.end;
        }
        return out + source.text.slice(at, statement.getEnd());
      })
      .join('\n');
  // A merge only ever rests on earlier ones, so each is sound; repeat until one pass merges nothing (a
  // function whose copies call each other's copies merges once its callees have).
  for (let changed = true; changed;) {
    changed = false;
    for (const names of candidates) {
      const first = new Map<string, string>();
      for (const name of names) {
        if (kept.has(name)) continue;
        const text = normalized(name);
        const same = first.get(text);
        if (same === undefined) first.set(text, name);
        else {
          kept.set(name, same);
          changed = true;
        }
      }
    }
  }
  return kept;
}

/**
 * The top-level statements to leave out (indices into `source.statements`): the dropped functions' (`merged`,
 * from {@link duplicateFunctions}) and their annotations, and each non-exported constant that no statement
 * left in reads, among ajv's (those `renames` has). `liveEdits` are the rename edits the module keeps (none
 * inside a replaced error object).
 */
export function droppedStatements(
  source: TS.SourceFile,
  liveEdits: readonly Edit[],
  merged: ReadonlyMap<string, string>,
  renames: ReadonlyMap<string, string>,
): Set<number> {
  const { uses, functions, constants } = classify(source, liveEdits);
  const dropped = new Set<number>();
  for (const name of merged.keys()) for (const i of functions.get(name) ?? []) dropped.add(i);
  const read = new Set<string>();
  uses.forEach((list, i) => {
    if (dropped.has(i)) return;
    for (const u of list) if (constants.get(u.old) !== i) read.add(u.old);
  });
  for (const [name, i] of constants) if (!read.has(name) && renames.has(name)) dropped.add(i);
  return dropped;
}
