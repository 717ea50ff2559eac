/**
 * @module mcp/node-builtins — node:child_process, loaded when first used instead of when the runtime is
 * imported: a process that never spawns a server does not load it, and a bundle for a platform without Node's
 * modules (a Cloudflare Worker without `nodejs_compat`) carries no import of one. The module comes from
 * `process.getBuiltinModule` (Node ≥ 20.16 and 22.3, Bun, Deno), which keeps the call synchronous without a
 * static `import … from 'node:module'`: such an import stays at the top of the built package, where a Worker
 * bundler cannot drop it and workerd refuses to start (docs/deployment.md).
 */
type ChildProcess = typeof import('node:child_process');

interface BuiltinLoader {
  getBuiltinModule?(id: string): unknown;
}

let childProcess: ChildProcess | undefined;

/** node:child_process, loaded on the first call; a one-line error where the runtime has none. */
export function nodeChildProcess(): ChildProcess {
  if (childProcess) return childProcess;
  const loader = (globalThis as { process?: BuiltinLoader }).process;
  const loaded = loader?.getBuiltinModule?.('node:child_process') as ChildProcess | undefined;
  if (!loaded) throw new Error('spawnStdio: node:child_process is not available here (it needs Node ≥ 20.16, Bun or Deno)');
  return (childProcess = loaded);
}
