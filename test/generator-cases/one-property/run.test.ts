/**
 * Case one-property, run: validator names are stable. schema.json is schema.before.json with one optional
 * property added to TextContent (a `$ref` to Annotations, which the old numbering compiled later and so
 * renumbered every function after it); generating both, validators.js and validators.fast.js differ by
 * fewer than 200 lines, and the new property is validated.
 */
import { describe, expect, it } from 'vitest';
import { changedLines, generateCase } from '../harness.ts';
import { validators } from './expected/index.ts';

describe('one-property: stable validator names', () => {
  it('adding one optional property changes fewer than 200 lines of validators.js and validators.fast.js', async () => {
    const before = await generateCase('one-property', 'schema.before.json');
    const after = await generateCase('one-property');
    const changed = (file: string) => changedLines(before.get(file)!, after.get(file)!);
    const js = changed('validators.js');
    const fastJs = changed('validators.fast.js');
    expect(js, 'validators.js').toBeGreaterThan(0);
    expect(js + fastJs, `validators.js ${js} + validators.fast.js ${fastJs} lines`).toBeLessThan(200);
    // Only TextContent's own code changes: no other validator is renamed or renumbered.
    const names = (text: string) => [...text.matchAll(/^function (\w+)/gm)].map((m) => m[1]).sort();
    expect(names(after.get('validators.js')!)).toEqual(names(before.get('validators.js')!));
  });

  it('the added property is validated', () => {
    expect(validators.TextContent({ type: 'text', text: 'a', annotations: { audience: ['user'] } })).toBe(true);
    expect(validators.TextContent({ type: 'text', text: 'a', annotations: { audience: ['robot'] } })).toBe(false);
    expect(validators.TextContent.errors?.some((e) => e.instancePath === '/annotations/audience/0')).toBe(true);
  });

  it('changedLines counts the lines only one side has', () => {
    expect(changedLines('a\nb\nc', 'a\nb\nc')).toBe(0);
    expect(changedLines('a\nb\nc', 'a\nx\nc')).toBe(2);
    expect(changedLines('a\nc', 'a\nb\nc')).toBe(1);
  });
});
