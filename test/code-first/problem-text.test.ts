/**
 * How the problems a Standard Schema reports are written (runtime/mcp/catalog/standard/validate.ts): each `path` as an
 * RFC 6901 JSON pointer (`~` as `~0`, `/` as `~1`; segments given as keys or as `{ key }`, StandardSchemaV1
 * PathSegment), the whole value as `(root)`, then the message; at most ten, then how many more.
 */
import { describe, expect, it } from 'vitest';
import { describeFailure, pathPointer } from '../../runtime/mcp/catalog/standard/validate.ts';

describe('Standard Schema problems as text', () => {
  it('writes each path as an RFC 6901 pointer', () => {
    // RFC 6901 §5: "a/b" is /a~1b, "m~n" is /m~0n.
    expect(pathPointer(['a/b', 'm~n', 0, { key: 'x' }, { key: 2 }])).toBe('/a~1b/m~0n/0/x/2');
    expect(pathPointer(undefined)).toBe('');
    expect(pathPointer([''])).toBe('/');
  });

  it('names the whole value (root), drops repeated lines, lists ten then counts the rest', () => {
    expect(describeFailure([{ message: 'Expected object' }])).toBe('(root) Expected object');
    expect(
      describeFailure([
        { message: 'bad', path: ['a'] },
        { message: 'bad', path: [{ key: 'a' }] },
      ]),
    ).toBe('/a bad');
    const many = Array.from({ length: 12 }, (_, i) => ({ message: 'bad', path: [i] }));
    expect(describeFailure(many)).toBe(`${Array.from({ length: 10 }, (_, i) => `/${i} bad`).join('; ')}; … (2 more)`);
  });
});
