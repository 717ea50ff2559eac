/**
 * @module emit/validators/stable-order — the statements of ajv's standalone code in a stable order, the last step of index.ts standaloneParts:
 * by the names they declare, not in the order ajv compiled them, with the edits made on the parsed module
 * applied statement by statement.
 */
import type * as TS from 'typescript';
import { afterPrologueAndImports, applyEdits, byPosition, exportsAnything, type Edit } from '../js-edit.ts';
import { ts } from '../typescript.ts';

/** An exported statement of a standalone module: `export const <name> = <target>;`, as edited. */
export interface StandaloneExport {
  /** The exported name. */
  readonly name: string;
  /** The validator it exports (its stable name), or undefined when the statement is not such an alias. */
  readonly target: string | undefined;
  readonly text: string;
}

/**
 * A standalone module in its parts, in the order index.ts standaloneParts writes them: the directive prologue
 * and the imports, the declarations in stable order, the exports by name; and whether any other statement
 * exports something (ajv's code has none: the caller that rewrites the exports checks).
 */
export interface StandaloneParts {
  readonly prologue: readonly string[];
  readonly declared: readonly string[];
  readonly exported: readonly StandaloneExport[];
  readonly otherExports: boolean;
}

/**
 * A declaration the module gets beside ajv's code. One that other top-level statements read while the module
 * loads (`readAtLoad`) is put before every other declaration, in the order added; the rest are sorted in
 * with ajv's by their key.
 */
export interface AddedDeclaration {
  readonly key: string;
  readonly text: string;
  readonly readAtLoad?: boolean;
}

/**
 * The text of each top-level statement of `source` with the `edits` inside it applied. Every edit lies inside
 * one statement (a renamed identifier, a replaced call); one that does not is an error.
 */
function editedStatements(source: TS.SourceFile, edits: readonly Edit[], label: string): string[] {
  const sorted = [...edits].sort(byPosition);
  let next = 0;
  const texts = source.statements.map((statement) => {
    const start = statement.getStart(source);
    const end = statement.getEnd();
    const inside: Edit[] = [];
    for (; next < sorted.length && sorted[next]!.start < end; next++) {
      const e = sorted[next]!;
      if (e.start < start || e.end > end) throw new Error(`${label}: an edit across statements at ${e.start}`);
      inside.push({ start: e.start - start, end: e.end - start, text: e.text });
    }
    return applyEdits(source.text.slice(start, end), inside);
  });
  if (next < sorted.length) throw new Error(`${label}: an edit outside every statement at ${sorted[next]!.start}`);
  return texts;
}

/**
 * The module's statements, edited, ordered by the names they declare, not in the order ajv compiled them: a
 * `$ref` added to an early definition makes ajv reach a function sooner, which would move its whole block.
 * Every top-level statement of ajv's standalone code only declares (a schema constant, a pattern, a format, a
 * function, a wrapper object naming a function) or annotates a function (`validate_X.evaluated = …`); none
 * runs a validator, so the order they run in at load does not matter, with one exception: a format constant
 * (`const format_date = formats.date;`) reads `formats`, which, when the module declares it (formats the
 * runtime lacks), must come first ({@link AddedDeclaration}: a `const` read before its declaration throws
 * when the module loads). Each function is followed by its
 * annotations; the exports come last, by name. `added` are the imports that follow the directive prologue and
 * the declarations they need; a statement's key is its declared name after `renames` (the statements are
 * classified on the parsed module as ajv wrote it, and edited as text, so the module is parsed only once).
 */
export function inStableOrder(
  source: TS.SourceFile,
  edits: readonly Edit[],
  renames: ReadonlyMap<string, string>,
  added: { readonly imports: readonly string[]; readonly declarations: readonly AddedDeclaration[] },
  dropped: ReadonlySet<number>,
  label: string,
): StandaloneParts {
  const texts = editedStatements(source, edits, label);
  const renamed = (name: string) => renames.get(name) ?? name;
  const leading = afterPrologueAndImports(source);
  const prologue: string[] = [];
  const exported: (StandaloneExport & { key: string })[] = [];
  let otherExports = false;
  const declared: { key: string; group: number; rank: number; index: number; text: string }[] = [];
  let index = 0;
  const addImports = () => {
    prologue.push(...added.imports);
    for (const d of added.declarations) declared.push({ key: d.key, group: d.readAtLoad ? 0 : 1, rank: 0, index: index++, text: d.text });
  };
  if (leading === 0) addImports();
  source.statements.forEach((statement, i) => {
    if (dropped.has(i)) {
      index++;
      if (statement.getEnd() === leading) addImports();
      return;
    }
    const text = texts[i]!;
    if (ts.isImportDeclaration(statement) || (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression))) prologue.push(text);
    else if (ts.isVariableStatement(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const [d, ...more] = statement.declarationList.declarations;
      const name = d?.name;
      const key = name && ts.isIdentifier(name) ? renamed(name.text) : text;
      const target = !more.length && d?.initializer && ts.isIdentifier(d.initializer) ? renamed(d.initializer.text) : undefined;
      exported.push({ key, name: key, target, text });
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      otherExports ||= exportsAnything(statement);
      declared.push({ key: renamed(statement.name.text), group: 1, rank: 1, index, text });
    } else if (ts.isVariableStatement(statement)) {
      const name = statement.declarationList.declarations[0]?.name;
      if (!name || !ts.isIdentifier(name)) throw new Error(`${label}: a top-level declaration without a name: ${text.slice(0, 80)}`);
      declared.push({ key: renamed(name.text), group: 1, rank: 0, index, text });
    } else if (
      ts.isExpressionStatement(statement) &&
      ts.isBinaryExpression(statement.expression) &&
      ts.isPropertyAccessExpression(statement.expression.left) &&
      ts.isIdentifier(statement.expression.left.expression)
    )
      declared.push({ key: renamed(statement.expression.left.expression.text), group: 1, rank: 2, index, text });
    else throw new Error(`${label}: a top-level statement standalone code is not expected to have: ${text.slice(0, 80)}`);
    index++;
    if (statement.getEnd() === leading) addImports();
  });
  const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  declared.sort((a, b) => a.group - b.group || (a.group === 0 ? a.index - b.index : byKey(a, b) || a.rank - b.rank || a.index - b.index));
  exported.sort(byKey);
  return {
    prologue,
    declared: declared.map((d) => d.text),
    exported: exported.map(({ name, target, text }) => ({ name, target, text })),
    otherExports,
  };
}
