/**
 * The all-errors set appends a failed callee's errors to its list (generator/emit/validators/error-append.ts): the edit
 * on a small module (a renamed callee keeps its rename), and the list it builds equal to ajv's copy-and-concat
 * on calls that fail in turn. The pins' reports against ajv's are test/generated/accept-path.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { errorListEdits } from '../../generator/emit/validators/error-append.ts';
import { applyEdits, parseModule, renameIdentifiers } from '../../generator/emit/js-edit.ts';

const TAKE = 'vErrors = vErrors === null ? validate3.errors : vErrors.concat(validate3.errors);';

describe('errorAppendEdits', () => {
  it('turns each take of a callee’s errors into an append, keeping the callee’s rename', () => {
    const text = `function v(data){ let vErrors = null; if(!validate3(data)){ ${TAKE} } if(!w.validate(data)){ vErrors = vErrors === null ? w.validate.errors : vErrors.concat(w.validate.errors); } }`;
    const source = parseModule(text, 'm.js', 'js');
    const edits = [...errorListEdits(source), ...renameIdentifiers(source, new Map([['validate3', 'validate_Leaf']]))];
    expect(applyEdits(text, edits)).toBe(
      'function v(data){ let vErrors = null; if(!validate_Leaf(data)){ if(vErrors === null){vErrors = validate_Leaf.errors;} else {for(const e of validate_Leaf.errors) vErrors.push(e);} } if(!w.validate(data)){ if(vErrors === null){vErrors = w.validate.errors;} else {for(const e of w.validate.errors) vErrors.push(e);} } }',
    );
  });

  it('builds the list ajv’s copies build, in order', () => {
    const module = (body: string) =>
      `const validate3 = (d) => { validate3.errors = d.map((n) => ({ n })); return d.length === 0; }; export function v(lists){ let vErrors = null; for (const d of lists) if(!validate3(d)){ ${body} } return vErrors; }`;
    const copying = module(TAKE);
    const appending = applyEdits(copying, errorListEdits(parseModule(copying, 'm.js', 'js')));
    expect(appending).not.toContain('concat');
    const run = (js: string) => new Function(`${js.replace('export function', 'return function')}`)() as (lists: number[][]) => unknown;
    const lists = [[1, 2], [], [3], [4, 5, 6]];
    expect(run(appending)(lists)).toEqual(run(copying)(lists));
    expect(run(appending)(lists)).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ n })));
  });
});
