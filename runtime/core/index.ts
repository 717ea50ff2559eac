/**
 * @module core — the runtime's `@wiregen/runtime/core` entry: what the runtime and the generated packages share
 * is the package `@wiregen/core` (core/ in the repository, which depends on no other package of ours); it is
 * re-exported here so that the runtime's modules, and the validators of a user's generated spec module (they
 * import `Check` and `formats` from `@wiregen/runtime/core`), keep one path to it.
 */
export * from '@wiregen/core';
