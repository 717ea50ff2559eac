/**
 * @module emit/validators/evaluated-props — a property marked evaluated is marked only while the record of evaluated
 * properties is an object.
 *
 * Ajv2020 records which properties of an object a schema evaluated (for `unevaluatedProperties`) in a local
 * `propsN`: an object of names, or `true` once every property is evaluated (`additionalProperties`, or a
 * branch that evaluated all of them). Where that turns `true` only at run time, ajv can still write
 * `propsN[key] = true;` after it (`patternProperties` beside an `allOf` with `additionalProperties: true`). Its
 * own validators are compiled by `new Function`, sloppy-mode code where a property written on a boolean is
 * dropped; a standalone module is strict (an ES module always is), where the same write throws `TypeError:
 * Cannot create property … on boolean 'true'`, and a validator ajv answers for throws instead. Each such write
 * is made `if(propsN !== true){propsN[key] = true;}`: what the sloppy write does, without the throw.
 * test/spec/schema-parity.property.test.ts (schema-edges.ts `evaluated_props_turned_true`) holds the
 * generated validators to ajv's verdicts on the schema that showed it.
 */
import type * as TS from 'typescript';
import type { Edit } from '../js-edit.ts';
import { ts } from '../typescript.ts';

/** ajv's name for a record of evaluated properties (`props0`, `props12`). */
const PROPS = /^props\d+$/;

/** The record a statement `propsN[key] = true;` or `propsN.name = true;` writes into, else undefined. */
function propsWrite(statement: TS.ExpressionStatement): string | undefined {
  const e = statement.expression;
  if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken || e.right.kind !== ts.SyntaxKind.TrueKeyword) return undefined;
  const target = ts.isElementAccessExpression(e.left) || ts.isPropertyAccessExpression(e.left) ? e.left.expression : undefined;
  return target && ts.isIdentifier(target) && PROPS.test(target.text) ? target.text : undefined;
}

/** The edits that guard every write into a record of evaluated properties (two insertions each). */
export function evaluatedPropsEdits(source: TS.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: TS.Node): void => {
    const props = ts.isExpressionStatement(node) ? propsWrite(node) : undefined;
    if (props !== undefined) {
      const start = node.getStart(source);
      const end = node.getEnd();
      edits.push({ start, end: start, text: `if(${props} !== true){` }, { start: end, end, text: '}' });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edits;
}
