/**
 * @module test/consumer/harness — what the consumer suites share: the client identity, the processes they
 * started (ended by consumer.test.ts), and running things in a project made from the tarballs: `node` until its
 * ready line, tsc, the packed `wiregen`, a folder's files, a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/project.ts';
import type { ConsumerProject } from './packages.ts';

export const INFO = { name: 'consumer-test', version: '1.0.0' };
/** Every process start() spawned, for consumer.test.ts to end. */
export const children: ChildProcess[] = [];

/** Every file of `dir` (relative), for comparing a regenerated folder with the committed one. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[relative(dir, abs)] = readFileSync(abs, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** `node <args>` in the project (plain Node: no loader, no tsx); resolves with it once it prints its ready line. */
export function start(project: ConsumerProject, args: readonly string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { cwd: project.root, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ url: (JSON.parse(line) as { url: string }).url, child });
    });
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited ${code}: ${err}`)));
  });
}

/** A free loopback port (for the agent, whose card names where it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export const tsc = (project: ConsumerProject) => project.exec(process.execPath, [project.path('node_modules/typescript/bin/tsc'), '-p', '.']);
export const wiregen = (project: ConsumerProject, args: readonly string[]) =>
  project.exec(process.execPath, [project.path('node_modules/wiregen/dist/bin.js'), ...args]);

/**
 * The TypeScript blocks of the README's "Use it in your project", which must compile in a user's project: those
 * of an agent (they import `createAgent`) in examples/a2a-agent, the others in examples/mcp-server.
 */
export function readmeBlocks(kind: 'server' | 'agent'): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Use it in your project');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.filter((code) => /\bcreateAgent\b/.test(code) === (kind === 'agent'));
}
