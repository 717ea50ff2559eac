/**
 * @module emit/js-edit — edits to code that other tools write (ajv's standalone modules,
 * json-schema-to-typescript's declarations), located by the TypeScript parser instead of regular
 * expressions: a statement, an identifier or a comment is found as the node it is, so a string or a comment
 * that happens to look like code is never touched, and an edit that finds nothing is an error, not a silent
 * no-op.
 */
import type * as TS from 'typescript';
import { ts } from './typescript.ts';

/** Replace `[start, end)` of the text with `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Parses a module: `js` for ajv's output, `ts` for declarations. Parent links are set unless `parents` is
 * false (the walks here pass each node's parent themselves; setting them costs a walk of a megabyte of ajv's
 * code per module).
 */
export function parseModule(text: string, fileName: string, kind: 'js' | 'ts', parents = true): TS.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, parents, kind === 'js' ? ts.ScriptKind.JS : ts.ScriptKind.TS);
}

/**
 * The order edits are applied in: by start, and an insertion (no width) before an edit that starts where it
 * is inserted (text put in front of an identifier that is also renamed).
 */
export function byPosition(a: Edit, b: Edit): number {
  return a.start - b.start || a.end - a.start - (b.end - b.start);
}

/** Applies edits (non-overlapping, in any order) to the text they were computed on. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort(byPosition);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** Whether `id` (a child of `parent`) names a property (`x.id`, `{ id: … }`), not a binding. */
export function isPropertyName(id: TS.Identifier, parent: TS.Node): boolean {
  return (ts.isPropertyAccessExpression(parent) && parent.name === id) || (ts.isPropertyAssignment(parent) && parent.name === id);
}

/**
 * Renames every reference to the names in `renames` (old → new): declarations and uses, never property names.
 * Shorthand properties (`{ a }`) are not expected in the code this edits and are refused.
 */
export function renameIdentifiers(source: TS.SourceFile, renames: ReadonlyMap<string, string>): Edit[] {
  const edits: Edit[] = [];
  // The parent is passed down: the source may have been parsed without parent links.
  const visit = (node: TS.Node, parent: TS.Node): void => {
    if (ts.isIdentifier(node) && renames.has(node.text) && !isPropertyName(node, parent)) {
      if (ts.isShorthandPropertyAssignment(parent)) throw new Error(`${source.fileName}: shorthand property ${node.text} cannot be renamed`);
      edits.push({ start: node.getStart(source), end: node.getEnd(), text: renames.get(node.text)! });
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  ts.forEachChild(source, (child) => visit(child, source));
  return edits;
}

/** The top-level names a module declares (functions, classes, `const`/`let`/`var` bindings), in order. */
export function topLevelNames(source: TS.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.push(statement.name.text);
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
  }
  return names;
}

/** The initializer of each top-level `const` declaration, as source text: name → text. */
export function topLevelInitializers(source: TS.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of source.statements)
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer) out.set(d.name.text, d.initializer.getText(source));
  return out;
}

/** Whether a statement exports anything (an `export` modifier, or an export declaration). */
export function exportsAnything(statement: TS.Statement): boolean {
  if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement)) return true;
  return ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

/** The position just after the module's directive prologue (`"use strict";`) and its imports. */
export function afterPrologueAndImports(source: TS.SourceFile): number {
  let end = 0;
  for (const statement of source.statements) {
    const directive = ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression);
    if (!directive && !ts.isImportDeclaration(statement)) break;
    end = statement.getEnd();
  }
  return end;
}

/** The top-level declaration (interface, type alias, …) named `name`, or undefined. */
export function declarationNamed(source: TS.SourceFile, name: string): TS.Statement | undefined {
  return source.statements.find(
    (s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) && s.name.text === name,
  );
}

/** The JSDoc comments (`/** … *\/`) right before a statement, with their ranges in the text. */
export function docCommentsOf(source: TS.SourceFile, statement: TS.Node): { start: number; end: number; text: string }[] {
  return (ts.getLeadingCommentRanges(source.text, statement.getFullStart()) ?? [])
    .filter((r) => r.kind === ts.SyntaxKind.MultiLineCommentTrivia && source.text.startsWith('/**', r.pos))
    .map((r) => ({ start: r.pos, end: r.end, text: source.text.slice(r.pos, r.end) }));
}
