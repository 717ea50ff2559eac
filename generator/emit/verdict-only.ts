/**
 * @module emit/verdict-only — the accept-path set's functions without ajv's location arguments.
 *
 * ajv compiles every validator as `function v(data, {instancePath="", parentData, parentDataProperty,
 * rootData=data}={})` and calls a referenced one as `v(data.params, {instancePath:instancePath+"/params",
 * parentData:data, parentDataProperty:"params", rootData})`: each call builds an object and a path string (for
 * a map's values, two `replace` calls per key), and each function destructures it again, whether or not the
 * data is valid. The locations only serve the error objects. validators.fast.js answers yes or no and its
 * `.errors` are never read (validators.js reports the all-errors set's, emit/validators.ts), so there its
 * functions take `data` alone, its calls pass the data alone, and the four names the error objects still
 * mention are module constants. The verdicts do not change: the error objects are still made and counted
 * where ajv makes them, only their `instancePath` is "" (test/generated/accept-path.test.ts holds both sets
 * equal on every pin).
 *
 * Found on the parsed module (emit/js-edit.ts). Anything else that reads one of the four names (ajv's `$data`
 * references read `rootData`, for one) is an error here, not a silent change of meaning.
 */
import ts from 'typescript';
import { isPropertyName, type Edit } from './js-edit.ts';

/** The location names: the second parameter of every function ajv compiles, and what each call passes there. */
const LOCATION = ['instancePath', 'parentData', 'parentDataProperty', 'rootData'] as const;
const LOCATION_SET: ReadonlySet<string> = new Set(LOCATION);

/** The module constant the error objects' location names resolve to once no function takes them. */
export const VERDICT_ONLY_DECLARATION = {
  key: 'instancePath',
  text: 'const instancePath = "", parentData = undefined, parentDataProperty = undefined, rootData = undefined;',
} as const;

/** Whether `node` is the object binding pattern `{instancePath="", parentData, parentDataProperty, rootData=data}`. */
function isLocationPattern(node: ts.BindingName): boolean {
  if (!ts.isObjectBindingPattern(node) || node.elements.length !== LOCATION.length) return false;
  return node.elements.every((e, i) => !e.propertyName && !e.dotDotDotToken && ts.isIdentifier(e.name) && e.name.text === LOCATION[i]);
}

/** Whether `node` is the object literal a call passes: exactly the four location properties. */
function isLocationArgument(node: ts.Expression): boolean {
  if (!ts.isObjectLiteralExpression(node) || node.properties.length !== LOCATION.length) return false;
  const names = node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : undefined));
  return LOCATION.every((n) => names.includes(n));
}

/** Whether `node` is one of ajv's error objects (`{instancePath, schemaPath, keyword, params}`). */
function isErrorObject(node: ts.Node): boolean {
  if (!ts.isObjectLiteralExpression(node)) return false;
  const names = new Set(node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : undefined)));
  return names.has('schemaPath') && names.has('keyword');
}

/**
 * The edits that make `source` (ajv's standalone code, as parsed) verdict-only: each function's location
 * parameter removed, each call's location argument removed. Add {@link VERDICT_ONLY_DECLARATION} to the module.
 * Throws when a function or a call does not have the shape ajv gives them, or a location name is read outside
 * an error object.
 */
export function verdictOnlyEdits(source: ts.SourceFile, label: string): Edit[] {
  const edits: Edit[] = [];
  const where = (node: ts.Node) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return `${label}:${line + 1}:${character + 1}`;
  };
  // `removed` and `inError` say whether the walk is inside a removed parameter or argument, or an error object.
  const visit = (node: ts.Node, parent: ts.Node, removed: boolean, inError: boolean): void => {
    if (ts.isFunctionDeclaration(node) && node.parameters.length > 1) {
      const [first, second, ...more] = node.parameters;
      if (more.length || !isLocationPattern(second!.name)) throw new Error(`${where(node)}: a validator whose parameters are not (data, {location})`);
      edits.push({ start: first!.getEnd(), end: second!.getEnd(), text: '' });
      if (node.body) visit(node.body, node, false, false);
      visit(second!, node, true, false);
      return;
    }
    if (ts.isCallExpression(node) && node.arguments.length === 2 && isLocationArgument(node.arguments[1]!)) {
      const [first, second] = node.arguments;
      edits.push({ start: first!.getEnd(), end: second!.getEnd(), text: '' });
      visit(node.expression, node, removed, inError);
      visit(first!, node, removed, inError);
      visit(second!, node, true, inError);
      return;
    }
    if (ts.isIdentifier(node) && LOCATION_SET.has(node.text) && !isPropertyName(node, parent) && !removed && !inError)
      throw new Error(`${where(node)}: ${node.text} is read outside an error object; the accept-path set cannot drop it`);
    const error = inError || isErrorObject(node);
    ts.forEachChild(node, (child) => visit(child, node, removed, error));
  };
  ts.forEachChild(source, (child) => visit(child, source, false, false));
  return edits;
}
