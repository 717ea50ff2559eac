/**
 * The all-errors set drops a passed union's errors with pop() (generator/emit/validators/error-truncate.ts): the edit on a
 * small module, and the list it leaves equal to ajv's length write on lists longer than, equal to and (never
 * in ajv's code, but pop() must not loop) no longer than the count. The pins' reports against ajv's are
 * test/generated/accept-path.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { errorListEdits } from '../../generator/emit/validators/error-append.ts';
import { applyEdits, parseModule } from '../../generator/emit/js-edit.ts';

const RESET = 'if(vErrors !== null){ if(_errs3){ vErrors.length = _errs3; } else { vErrors = null; } }';

describe('errorTruncateEdits', () => {
  it('turns each write of the list’s length into a pop loop, and nothing else', () => {
    const text = `function v(data){ let vErrors = [1, 2]; const _errs3 = 1; other.length = _errs3; ${RESET} return vErrors; }`;
    expect(applyEdits(text, errorListEdits(parseModule(text, 'm.js', 'js')))).toBe(
      'function v(data){ let vErrors = [1, 2]; const _errs3 = 1; other.length = _errs3; if(vErrors !== null){ if(_errs3){ while(vErrors.length > _errs3) vErrors.pop(); } else { vErrors = null; } } return vErrors; }',
    );
  });

  it('shares the error-append walk: errorListEdits makes both edits, each once', () => {
    const take = 'vErrors = vErrors === null ? validate3.errors : vErrors.concat(validate3.errors);';
    const text = `function v(data){ let vErrors = null; const _errs3 = 0; if(!validate3(data)){ ${take} } ${RESET} return vErrors; }`;
    const out = applyEdits(text, errorListEdits(parseModule(text, 'm.js', 'js')));
    expect(out).toContain('for(const e of validate3.errors) vErrors.push(e);');
    expect(out).toContain('while(vErrors.length > _errs3) vErrors.pop();');
    expect(out).not.toMatch(/concat|vErrors\.length = /);
  });

  it('leaves the list ajv’s length write leaves', () => {
    const module = (reset: string) => `return function v(list, _errs3){ let vErrors = list; ${reset} return vErrors; }`;
    const popping = applyEdits(RESET, errorListEdits(parseModule(RESET, 'm.js', 'js')));
    expect(popping).toContain('pop()');
    const run = (body: string) => new Function(module(body))() as (list: number[] | null, count: number) => unknown;
    for (const [list, count] of [
      [[1, 2, 3, 4], 2],
      [[1, 2], 2],
      [[1, 2, 3], 0],
      [null, 0],
      [[1], 1],
    ] as const) {
      const want = run(RESET)(list && [...list], count);
      expect(run(popping)(list && [...list], count), `${JSON.stringify(list)} to ${count}`).toEqual(want);
    }
  });
});
