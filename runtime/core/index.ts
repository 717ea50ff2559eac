/**
 * @module core — the runtime's `@wiregen/runtime/core` entry: what the runtime and the generated packages share
 * is the package `@wiregen/core` (core/ in the repository, which depends on no other package of ours); it is
 * re-exported here so that the runtime's modules, and the validators of a user's generated spec module (they
 * import `Check` and `formats` from `@wiregen/runtime/core`), keep one path to it. Its values are named: the
 * build bundles the runtime with @wiregen/core left an import, and a bundler cannot see through `export *`
 * of a module it does not read (test/consumer/package-graph.test.ts holds the list whole).
 */
export type * from '@wiregen/core';
export { checkResult, formats, formatsUsed, InvalidResultError, lookupIn, requestChecked, streamChecked } from '@wiregen/core';
