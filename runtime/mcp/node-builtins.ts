/**
 * @module mcp/node-builtins — node:crypto and node:child_process, loaded when first used instead of when the
 * runtime is imported: a server that never signs a requestState, and a process that never spawns a server,
 * do not load them at start-up (node:crypto alone is a few milliseconds of a cold start). Node's own module,
 * through `require`, so the call stays synchronous.
 */
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
type ChildProcess = typeof import('node:child_process');

const require = createRequire(import.meta.url);
let crypto: Crypto | undefined;
let childProcess: ChildProcess | undefined;

/** node:crypto, loaded on the first call. */
export function nodeCrypto(): Crypto {
  return (crypto ??= require('node:crypto') as Crypto);
}

/** node:child_process, loaded on the first call. */
export function nodeChildProcess(): ChildProcess {
  return (childProcess ??= require('node:child_process') as ChildProcess);
}
