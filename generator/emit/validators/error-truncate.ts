/**
 * @module emit/validators/error-truncate — in the all-errors set, the errors of a union's failed branches are dropped
 * with `pop()` instead of by writing the list's `length`.
 *
 * Where a union (`anyOf`, `oneOf`), a `not` or an `if` passes, ajv resets the error list to the count it had
 * before: `if(vErrors !== null){ if(_errs3){ vErrors.length = _errs3; } else { vErrors = null; } }`. Writing
 * an array's `length` is a call into V8's runtime, not a store the optimizing compiler inlines: a message
 * with one error before a passing union (a missing property, then a content block that matches its second
 * branch) spent about a third of its time there. Here the write is `while(vErrors.length > _errs3)
 * vErrors.pop();`: the list is at least `_errs3` long there (errors are only added after the count was
 * taken), so the same errors are left, and `pop()` of the few a failed branch added is inlined. The reports
 * are ajv's own, error for error (test/generated/accept-path.test.ts on every pin,
 * test/generator/error-truncate.test.ts).
 */
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import type { Edit } from '../js-edit.ts';

/**
 * The two edits that turn `statement` into a pop loop when it is `vErrors.length = <count>;`, else none. Only
 * the text around the count is replaced, so a renamed count (none is today) would keep its edit.
 */
export function truncateEdits(statement: TS.ExpressionStatement, source: TS.SourceFile): Edit[] | undefined {
  if (!ts.isBinaryExpression(statement.expression)) return undefined;
  const { left, operatorToken, right } = statement.expression;
  if (
    operatorToken.kind !== ts.SyntaxKind.EqualsToken ||
    !ts.isPropertyAccessExpression(left) ||
    !ts.isIdentifier(left.expression) ||
    left.expression.text !== 'vErrors' ||
    left.name.text !== 'length' ||
    !ts.isIdentifier(right)
  )
    return undefined;
  return [
    { start: statement.getStart(source), end: right.getStart(source), text: 'while(vErrors.length > ' },
    { start: right.getEnd(), end: statement.getEnd(), text: ') vErrors.pop();' },
  ];
}
