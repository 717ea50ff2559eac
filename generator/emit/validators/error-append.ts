/**
 * @module emit/validators/error-append — in the all-errors set, a failed callee's errors are appended to the caller's
 * list instead of the list being copied.
 *
 * ajv takes a callee's errors as `vErrors = vErrors === null ? w.errors : vErrors.concat(w.errors);`: every
 * failed call after the first copies the whole list so far into a new array, which in a failed union (every
 * branch reports, each through such a take) makes the copying grow with the square of the errors. Here the
 * take is `if(vErrors === null){vErrors = w.errors;} else {for(const e of w.errors) vErrors.push(e);}`: the
 * same list, in the same order. The list a function builds is only ever its own or one its callees built
 * during this same call (each call starts from `vErrors = null`), so appending to it changes no list a caller
 * already holds; the exported validators' reports are ajv's own, error for error
 * (test/generated/accept-path.test.ts on every pin, test/generator/instance-path.test.ts).
 */
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import type { Edit } from '../js-edit.ts';
import { truncateEdits } from './error-truncate.ts';
import { isErrorsTake } from './verdict-only.ts';

/**
 * The edits that turn each take of a callee's errors in `source` (ajv's standalone code, as parsed) into an
 * append, and each length write into error-truncate.ts's pop loop, in one walk over the module (the
 * all-errors set is about a megabyte of code per pin, and each walk of it counts in a generate).
 */
export function errorListEdits(source: TS.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: TS.Node): void => {
    const truncated = ts.isExpressionStatement(node) ? truncateEdits(node, source) : undefined;
    if (truncated) {
      edits.push(...truncated);
      return;
    }
    if (ts.isExpressionStatement(node) && isErrorsTake(node, source)) {
      // vErrors = vErrors === null ? <w>.errors : vErrors.concat(<w>.errors);
      const take = (node.expression as TS.BinaryExpression).right as TS.ConditionalExpression;
      const argument = (take.whenFalse as TS.CallExpression).arguments[0]!;
      // Only the text around the two `<w>.errors` is replaced, so a renamed <w> keeps its edit.
      edits.push({ start: node.getStart(source), end: take.whenTrue.getStart(source), text: 'if(vErrors === null){vErrors = ' });
      edits.push({ start: take.whenTrue.getEnd(), end: argument.getStart(source), text: ';} else {for(const e of ' });
      edits.push({ start: argument.getEnd(), end: node.getEnd(), text: ') vErrors.push(e);}' });
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return edits;
}
