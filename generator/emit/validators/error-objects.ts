/**
 * @module emit/validators/error-objects — in the all-errors set, each error object is made by one shared function
 * instead of written out as an object literal.
 *
 * ajv writes every error it may report as `{instancePath:…,schemaPath:"…",keyword:"…",params:{…},message:"…"}`:
 * for 2026-07-28, 968 of them, 130 of the 286 KB the minified all-errors set weighs, of which the five
 * property names are about 45 bytes each (a minifier keeps property names). Here each becomes
 * `ajvError(<instancePath>,"…","…",{…},"…")`, and `ajvError` returns the object with the same properties in
 * the same order: the same error objects on `.errors` (test/generated/accept-path.test.ts compares the
 * exported validators' reports with ajv's own on every pin), made at one site, so of one shape. Only the text
 * between the values is replaced, so an edit inside a value (a rename) keeps its place. An object of any
 * other shape (ajv adds `propertyName` for `propertyNames`) is left as it is.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import type { Edit } from '../js-edit.ts';
import type { AddedDeclaration } from './stable-order.ts';

/** The properties of ajv's error objects with these options, in ajv's order. */
const FIELDS = ['instancePath', 'schemaPath', 'keyword', 'params', 'message'] as const;

/** The shared function's name (validators/index.ts keeps a validator from taking it). */
export const ERROR_FUNCTION = 'ajvError';

/** The declaration of {@link ERROR_FUNCTION}, added to a module that has an edit of {@link errorObjectEdits}. */
export const ERROR_DECLARATION: AddedDeclaration = {
  key: ERROR_FUNCTION,
  text: `function ${ERROR_FUNCTION}(${FIELDS.join(', ')}){return {${FIELDS.join(', ')}};}`,
};

/** The value of each of {@link FIELDS} when `node` is an error object of exactly that shape (`instancePath` may be shorthand). */
function errorObject(node: TS.ObjectLiteralExpression): TS.Node[] | undefined {
  if (node.properties.length !== FIELDS.length) return undefined;
  const values: TS.Node[] = [];
  for (const [i, p] of node.properties.entries()) {
    if (!p.name || !ts.isIdentifier(p.name) || p.name.text !== FIELDS[i]) return undefined;
    if (ts.isPropertyAssignment(p)) values.push(p.initializer);
    else if (i === 0 && ts.isShorthandPropertyAssignment(p)) values.push(p.name);
    else return undefined;
  }
  return values;
}

/** The edits that make each error object of `source` (ajv's standalone code, as parsed) a call of {@link ERROR_FUNCTION}. */
export function errorObjectEdits(source: TS.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: TS.Node): void => {
    const values = ts.isObjectLiteralExpression(node) ? errorObject(node) : undefined;
    if (values) {
      let from = node.getStart(source);
      let text = `${ERROR_FUNCTION}(`;
      for (const value of values) {
        edits.push({ start: from, end: value.getStart(source), text });
        from = value.getEnd();
        text = ',';
      }
      edits.push({ start: from, end: node.getEnd(), text: ')' });
      // The values hold no error object, but an edit inside them is another module's.
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return edits;
}
