/**
 * @module emit/validators/instance-path — the all-errors set's functions take the instance path alone as their location.
 *
 * ajv compiles every validator as `function v(data, {instancePath="", parentData, parentDataProperty,
 * rootData=data}={})` and calls a referenced one as `v(data.params, {instancePath:instancePath+"/params",
 * parentData:data, parentDataProperty:"params", rootData})`: an object built by each call and taken apart again
 * by the callee. Of the four, the error objects read only `instancePath`; the other three serve what these
 * options and schemas do not use (`$data` references, defaults, type coercion, removing properties). So each
 * function's second parameter becomes `instancePath=""` and each call passes the path expression alone: the
 * same path strings, the same error objects on `.errors` (test/generated/accept-path.test.ts compares the
 * exported validators' reports with ajv's own on every pin), one object and one destructuring fewer per call.
 * That matters where the all-errors set runs, on data the accept path has refused (precheck.ts).
 *
 * A module that reads `parentData`, `parentDataProperty` or `rootData` anywhere else, or has a function of
 * another shape, is left as ajv wrote it (no edits): nothing is lost, only the saving.
 */
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import { isPropertyName, type Edit } from '../js-edit.ts';
import { isLocationArgument, isLocationPattern, LOCATION } from './verdict-only.ts';

/** The location names other than the instance path. */
const OTHERS: ReadonlySet<string> = new Set(LOCATION.filter((n) => n !== 'instancePath'));

/**
 * The edits that leave `source` (ajv's standalone code, as parsed) passing the instance path alone, or none
 * when the module does not have the shape ajv gives these schemas (see the module comment).
 */
export function instancePathEdits(source: TS.SourceFile): Edit[] {
  const edits: Edit[] = [];
  let plain = true;
  const visit = (node: TS.Node, parent: TS.Node): void => {
    if (!plain) return;
    if (ts.isFunctionDeclaration(node) && node.parameters.length > 1) {
      const [, second, ...more] = node.parameters;
      if (more.length || !isLocationPattern(second!.name)) {
        plain = false;
        return;
      }
      edits.push({ start: second!.getStart(source), end: second!.getEnd(), text: 'instancePath=""' });
      if (node.body) visit(node.body, node);
      return;
    }
    if (ts.isCallExpression(node) && node.arguments.length === 2 && isLocationArgument(node.arguments[1]!)) {
      const location = node.arguments[1] as TS.ObjectLiteralExpression;
      const path = location.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === 'instancePath');
      if (path && ts.isShorthandPropertyAssignment(path)) {
        // `{instancePath, …}`: the caller's own path.
        edits.push({ start: location.getStart(source), end: location.getEnd(), text: 'instancePath' });
      } else if (path && ts.isPropertyAssignment(path)) {
        // `{instancePath: <path>, …}`: the path expression stays (with any edit inside it), the rest goes.
        edits.push({ start: location.getStart(source), end: path.initializer.getStart(source), text: '' });
        edits.push({ start: path.initializer.getEnd(), end: location.getEnd(), text: '' });
        visit(path.initializer, path);
      } else {
        plain = false;
        return;
      }
      visit(node.expression, node);
      visit(node.arguments[0]!, node);
      return;
    }
    if (ts.isIdentifier(node) && OTHERS.has(node.text) && !isPropertyName(node, parent)) {
      plain = false;
      return;
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  ts.forEachChild(source, (child) => visit(child, source));
  return plain ? edits : [];
}
