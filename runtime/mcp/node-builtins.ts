/**
 * @module mcp/node-builtins — node:child_process, loaded when first used instead of when the runtime is
 * imported: a process that never spawns a server does not load it at start-up. Node's own module, through
 * `require`, so the call stays synchronous; the `require` is made on that first call too, never at import
 * (where the module is bundled for a platform without `import.meta.url` or Node's modules, a Cloudflare
 * Worker, importing this file must do nothing: docs/deployment.md).
 */
import { createRequire } from 'node:module';

type ChildProcess = typeof import('node:child_process');

let childProcess: ChildProcess | undefined;

/** node:child_process, loaded on the first call. */
export function nodeChildProcess(): ChildProcess {
  return (childProcess ??= createRequire(import.meta.url)('node:child_process') as ChildProcess);
}
