/**
 * @module test/types/equal — type-level assertions for the `*.test-d.ts` files, which `tsc` compiles in
 * `npm run typecheck` and nothing runs: `expectType<Equal<A, B>>(true)` fails to compile unless A and B are
 * the same type.
 */

/** `true` when `A` and `B` are identical (not merely assignable either way), else `false`. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when given `true` of an `Equal` that holds. */
export function expectType<T extends true>(value: T): T {
  return value;
}
