/**
 * @module emit/validators/precheck — in the all-errors set, a referenced definition that is valid is not walked for
 * errors: each call from one validator to another that stands for a definition of the pin
 * (`validate_SamplingContent(data.content, {instancePath…})`) first asks the accept-path validator of that
 * definition (`fastSet.SamplingContent(data.content) || validate_SamplingContent(…)`).
 *
 * Why: a message is only checked by the all-errors set once the accept path has said no, and then usually
 * one property is wrong while the rest is valid. With `allErrors`, ajv still walks every valid part in full,
 * trying each branch of every union and making an error object for each branch that fails, to discard them
 * all when one branch passes. The accept-path validator answers the same yes or no (the two sets are held
 * equal, test/generated/accept-path.test.ts) at a fraction of the cost, and where it says yes the all-errors
 * function would have returned true, leaving nothing on `.errors` that the caller reads. Where it says no, the
 * all-errors function runs as before, so the report is the same, error for error.
 *
 * Only for documents without `unevaluated*` or `$dynamicRef` (accept-path.ts UNEVALUATED): a call
 * skipped there would also skip the properties the callee marks as evaluated, which those keywords read.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import type { Edit } from '../js-edit.ts';

/** Whether evaluating `node` twice is the same as once: a name, or property and index reads of one. */
function isPlainRead(node: TS.Expression): boolean {
  if (ts.isIdentifier(node)) return true;
  if (ts.isPropertyAccessExpression(node)) return isPlainRead(node.expression);
  if (ts.isElementAccessExpression(node))
    return isPlainRead(node.expression) && (ts.isIdentifier(node.argumentExpression) || ts.isLiteralExpression(node.argumentExpression));
  return false;
}

/**
 * ajv's name of each function that validates the schema of an export (the export's own function, and the
 * same definition compiled again where another one refers to it) → that export's name. `functions` are the
 * module's compiled functions by ajv's name (standalone.ts).
 */
export function validatorsOfExports(
  ajv: { getSchema(uri: string): unknown },
  refs: Readonly<Record<string, string>>,
  functions: ReadonlyMap<string, { readonly schema: unknown }>,
): Map<string, string> {
  const exportOfSchema = new Map<unknown, string>();
  for (const [name, uri] of Object.entries(refs)) {
    const schema = (ajv.getSchema(uri) as { schema?: unknown } | undefined)?.schema;
    if (schema !== null && typeof schema === 'object' && !exportOfSchema.has(schema)) exportOfSchema.set(schema, name);
  }
  const out = new Map<string, string>();
  for (const [ajvName, fn] of functions) {
    const name = exportOfSchema.get(fn.schema);
    if (name !== undefined) out.set(ajvName, name);
  }
  return out;
}

/**
 * The edits that put the accept-path check in front of every call, inside a function of `source` (ajv's
 * all-errors standalone code, as parsed, names as ajv wrote them), to a function `exported` names (ajv's
 * name → the export whose schema it validates) with a location argument: `(<namespace>.<Export>(<data>) || `
 * before it and `)` after it. A call whose data argument is not a plain read is left as it is, and so are
 * calls that pass the same data as another call of the function (a union's branches).
 */
export function precheckEdits(source: TS.SourceFile, namespace: string, exported: ReadonlyMap<string, string>): Edit[] {
  const edits: Edit[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement)) continue;
    // The first call of this function passing each data, and how many pass it.
    const calls = new Map<string, { call: TS.CallExpression; count: number }>();
    const visit = (node: TS.Node): void => {
      // Every call to a validator (a location argument), exported or not, counts for the grouping.
      if (ts.isCallExpression(node) && node.arguments.length === 2 && ts.isObjectLiteralExpression(node.arguments[1]!)) {
        const data = node.arguments[0]!.getText(source);
        const seen = calls.get(data);
        if (seen) seen.count++;
        else calls.set(data, { call: node, count: 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(statement);
    for (const [data, { call, count }] of calls) {
      // Data handed to several validators is a union's branches (or an allOf's parts): there most branches
      // fail, and asking the accept path first would only add its no to each of them.
      if (count > 1 || !ts.isIdentifier(call.expression) || !isPlainRead(call.arguments[0]!)) continue;
      const name = exported.get(call.expression.text);
      if (name === undefined) continue;
      edits.push({ start: call.getStart(source), end: call.getStart(source), text: `(${namespace}.${name}(${data}) || ` });
      edits.push({ start: call.getEnd(), end: call.getEnd(), text: ')' });
    }
  }
  return edits;
}
