/**
 * @module emit/validators/verdict-only — the accept-path set's functions without ajv's location arguments and error
 * lists.
 *
 * ajv compiles every validator as `function v(data, {instancePath="", parentData, parentDataProperty,
 * rootData=data}={})` and calls a referenced one as `v(data.params, {instancePath:instancePath+"/params",
 * parentData:data, parentDataProperty:"params", rootData})`: each call builds an object and a path string (for
 * a map's values, two `replace` calls per key), and each function destructures it again, whether or not the
 * data is valid. The locations only serve the error objects. validators.fast.js answers yes or no and nothing
 * reads its `.errors` (validators.js reports the all-errors set's, index.ts), so there its
 * functions take `data` alone and its calls pass the data alone. Nor are its error objects' contents read:
 * each object literal ajv writes (a schema path, a keyword, a message, the parameters; a third of the set's
 * code, parsed on every cold start) is one shared, frozen module constant instead.
 *
 * Nor does a function leave a list on `.errors`: ajv's `v.errors = vErrors;` (or `= [error]`) before each
 * return is dropped, and where a caller took a failed callee's list (`vErrors = vErrors === null ? w.errors :
 * vErrors.concat(w.errors); errors = vErrors.length;`) it counts one error instead (`errors++;`). The
 * verdicts do not change: without `allErrors`, ajv's code decides only by whether the count moved since a
 * point (`_errs1 === errors`, a union's branch) or is still 0, and the count moves exactly where it did
 * (test/generated/accept-path.test.ts holds both sets equal on every pin). A module that reads `.errors`
 * anywhere else is refused.
 *
 * Found on the parsed module (../js-edit.ts). Anything else that reads one of the four names (ajv's `$data`
 * references read `rootData`, for one) is an error here, not a silent change of meaning.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import { isPropertyName, type Edit } from '../js-edit.ts';

/** The location names: the second parameter of every function ajv compiles, and what each call passes there. */
export const LOCATION = ['instancePath', 'parentData', 'parentDataProperty', 'rootData'] as const;
const LOCATION_SET: ReadonlySet<string> = new Set(LOCATION);

/** The name of the error every error object of the set becomes. */
const VERDICT_ERROR = 'verdictError';

/** The module constant every error object of the set is replaced with. */
export const VERDICT_ONLY_DECLARATION = {
  key: VERDICT_ERROR,
  text: `const ${VERDICT_ERROR} = Object.freeze({instancePath: "", schemaPath: "", keyword: "false", params: Object.freeze({}), message: "invalid (the accept-path set does not say why)"});`,
} as const;

/** Whether `node` is the object binding pattern `{instancePath="", parentData, parentDataProperty, rootData=data}`. */
export function isLocationPattern(node: TS.BindingName): boolean {
  if (!ts.isObjectBindingPattern(node) || node.elements.length !== LOCATION.length) return false;
  return node.elements.every((e, i) => !e.propertyName && !e.dotDotDotToken && ts.isIdentifier(e.name) && e.name.text === LOCATION[i]);
}

/** Whether `node` is the object literal a call passes: exactly the four location properties. */
export function isLocationArgument(node: TS.Expression): boolean {
  if (!ts.isObjectLiteralExpression(node) || node.properties.length !== LOCATION.length) return false;
  const names = node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : undefined));
  return LOCATION.every((n) => names.includes(n));
}

/** Whether `node` is one of ajv's error objects (`{instancePath, schemaPath, keyword, params}`). */
function isErrorObject(node: TS.Node): boolean {
  if (!ts.isObjectLiteralExpression(node)) return false;
  const names = new Set(node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : undefined)));
  return names.has('schemaPath') && names.has('keyword');
}

/** Whether `node` is `<callee>.errors` (a validator's own, or a recursive reference's `wrapper_X.validate.errors`). */
function isErrorsRead(node: TS.Node): node is TS.PropertyAccessExpression {
  return ts.isPropertyAccessExpression(node) && node.name.text === 'errors';
}

/** Whether `statement` is `<callee>.errors = <list>;`, which a function writes before it returns. */
function isErrorsWrite(statement: TS.Statement): boolean {
  if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) return false;
  const { left, operatorToken } = statement.expression;
  return operatorToken.kind === ts.SyntaxKind.EqualsToken && isErrorsRead(left);
}

/** The text of `statement` without spaces, to compare with the shapes ajv writes. */
const compact = (statement: TS.Statement, source: TS.SourceFile) => statement.getText(source).replace(/\s+/g, '');

/** Whether `statement` takes a failed callee's list: `vErrors = vErrors === null ? w.errors : vErrors.concat(w.errors);`. */
export function isErrorsTake(statement: TS.Statement, source: TS.SourceFile): boolean {
  // The shape first: the text of a block or a function (every statement of a list is asked) is long.
  if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) return false;
  return /^vErrors=vErrors===null\?([\w.]+)\.errors:vErrors\.concat\(\1\.errors\);$/.test(compact(statement, source));
}

/**
 * The edits that make `source` (ajv's standalone code, as parsed) verdict-only: each function's location
 * parameter removed, each call's location argument removed, each error object replaced, each write of
 * `.errors` removed and each take of a callee's list a count. Add {@link VERDICT_ONLY_DECLARATION} to the
 * module, and drop any other edit inside a replaced or removed range ({@link withoutEditsInside}). Throws when
 * a function or a call does not have the shape ajv gives them, a location name is read outside an error
 * object, or `.errors` is read outside a take.
 */
export function verdictOnlyEdits(source: TS.SourceFile, label: string): Edit[] {
  const edits: Edit[] = [];
  const where = (node: TS.Node) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return `${label}:${line + 1}:${character + 1}`;
  };
  // `removed` says whether the walk is inside a removed parameter or argument.
  const visit = (node: TS.Node, parent: TS.Node, removed: boolean): void => {
    if (ts.isFunctionDeclaration(node) && node.parameters.length > 1) {
      const [first, second, ...more] = node.parameters;
      if (more.length || !isLocationPattern(second!.name)) throw new Error(`${where(node)}: a validator whose parameters are not (data, {location})`);
      edits.push({ start: first!.getEnd(), end: second!.getEnd(), text: '' });
      if (node.body) visit(node.body, node, false);
      visit(second!, node, true);
      return;
    }
    if (ts.isCallExpression(node) && node.arguments.length === 2 && isLocationArgument(node.arguments[1]!)) {
      const [first, second] = node.arguments;
      edits.push({ start: first!.getEnd(), end: second!.getEnd(), text: '' });
      visit(node.expression, node, removed);
      visit(first!, node, removed);
      visit(second!, node, true);
      return;
    }
    if (ts.isIdentifier(node) && LOCATION_SET.has(node.text) && !isPropertyName(node, parent) && !removed)
      throw new Error(`${where(node)}: ${node.text} is read outside an error object; the accept-path set cannot drop it`);
    if (isErrorObject(node)) {
      edits.push({ start: node.getStart(source), end: node.getEnd(), text: VERDICT_ERROR });
      return;
    }
    if (ts.isBlock(node)) {
      visitStatements(node.statements, node, removed);
      return;
    }
    if (isErrorsRead(node))
      throw new Error(`${where(node)}: .errors is read outside a take of a callee's errors; the accept-path set cannot drop it`);
    ts.forEachChild(node, (child) => visit(child, node, removed));
  };
  // A block's statements: the writes of `.errors` removed, each take of a callee's list (and the count
  // that follows it) one `errors++;`.
  const visitStatements = (statements: TS.NodeArray<TS.Statement>, parent: TS.Node, removed: boolean): void => {
    for (let i = 0; i < statements.length; i++) {
      const statement = statements[i]!;
      if (isErrorsWrite(statement)) {
        // With its line end, so that no empty line is left in its place.
        const end = statement.getEnd();
        edits.push({ start: statement.getStart(source), end: source.text[end] === '\n' ? end + 1 : end, text: '' });
        continue;
      }
      if (isErrorsTake(statement, source)) {
        const count = statements[i + 1];
        if (count === undefined || compact(count, source) !== 'errors=vErrors.length;')
          throw new Error(`${where(statement)}: a take of a callee's errors not followed by errors = vErrors.length`);
        edits.push({ start: statement.getStart(source), end: count.getEnd(), text: 'errors++;' });
        i++;
        continue;
      }
      visit(statement, parent, removed);
    }
  };
  ts.forEachChild(source, (child) => visit(child, source, false));
  return edits;
}

/** `edits` without those inside a range that one of `replacing` replaces whole (a renamed name in an error object). */
export function withoutEditsInside(edits: readonly Edit[], replacing: readonly Edit[]): Edit[] {
  const ranges = [...replacing].sort((a, b) => a.start - b.start);
  const inside = (e: Edit): boolean => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = ranges[mid]!;
      if (r.end <= e.start) lo = mid + 1;
      else if (r.start > e.start) hi = mid - 1;
      else return r !== e && e.end <= r.end;
    }
    return false;
  };
  return edits.filter((e) => !inside(e));
}
