/**
 * @module test/consumer/harness — what the consumer suites share: the client identity, the processes they
 * started (ended by consumer.test.ts), running things in a project made from the tarballs (`node` until its
 * ready line, tsc, the packed `wiregen`, a folder's files, a free port), and the ```ts blocks of the README and
 * the docs/ pages, written into the example project each compiles in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative } from 'node:path';
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

/** A ```ts block of the README or of a docs/ page, as the consumer suites compile it. */
export interface DocBlock {
  /** Where it is: the page (`README.md`, `docs/client.md`) and the line of its opening fence. */
  readonly at: string;
  readonly code: string;
  /** The example project it compiles in: an agent's (it imports `@wiregen/runtime/a2a`, `createAgent` or `./agent.js`) or a server's. */
  readonly kind: 'server' | 'agent';
  /**
   * The file it is written to in that project: the one its first line names (`// src/code-first.ts: …`), or
   * `src/doc-<page>-<n>.ts`. A block naming a file the example already has must be that file.
   */
  readonly file: string;
  /** Why it is not compiled, when the line before its fence says so (`<!-- not compiled: <reason> -->`). */
  readonly notCompiled?: string;
}

/** The pages whose code must compile: README.md and every docs/*.md. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const AGENT_CODE = /@wiregen\/runtime\/a2a\b|\bcreateAgent\b|from '\.\/agent\.js'/;
const NAMED_FILE = /^\/\/ (src\/[\w/.-]+\.ts)\b/;
const NOT_COMPILED = /^<!-- not compiled: (.+?) -->$/;

/** Every ```ts block of the README and the docs/ pages (see {@link DocBlock}). */
export function docBlocks(): DocBlock[] {
  const blocks: DocBlock[] = [];
  for (const page of docPages()) {
    const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
    const slug = page === 'README.md' ? 'readme' : page.slice('docs/'.length, -'.md'.length);
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== '```ts') continue;
      const end = lines.indexOf('```', i + 1);
      if (end < 0) throw new Error(`${page}:${i + 1}: a \`\`\`ts block that is never closed`);
      const code = `${lines.slice(i + 1, end).join('\n')}\n`;
      const named = NAMED_FILE.exec(code)?.[1];
      const reason = NOT_COMPILED.exec(lines[i - 1] ?? '')?.[1];
      n++;
      blocks.push({
        at: `${page}:${i + 1}`,
        code,
        kind: AGENT_CODE.test(code) ? 'agent' : 'server',
        file: named ?? `src/doc-${slug}-${n}.ts`,
        ...(reason !== undefined ? { notCompiled: reason } : {}),
      });
      i = end;
    }
  }
  return blocks;
}

/** A file of an example without its leading module comment (what a README block naming it shows). */
export function withoutModuleComment(text: string): string {
  return text.replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
}

/**
 * Writes the blocks of one kind into the project for tsc (those marked not compiled left out). A block naming a
 * file the example has is not written: it must equal that file, its first line and the file's module comment
 * aside. Returns the blocks written and those compared.
 */
export function writeDocBlocks(project: ConsumerProject, kind: 'server' | 'agent'): { written: DocBlock[]; compared: DocBlock[] } {
  const written: DocBlock[] = [];
  const compared: DocBlock[] = [];
  for (const block of docBlocks()) {
    if (block.kind !== kind || block.notCompiled !== undefined) continue;
    const path = project.path(block.file);
    if (existsSync(path)) {
      const shown = block.code.slice(block.code.indexOf('\n') + 1);
      if (shown !== withoutModuleComment(readFileSync(path, 'utf8')))
        throw new Error(`${block.at}: the block naming ${block.file} is not that file of the example (its module comment aside)`);
      compared.push(block);
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, block.code);
      written.push(block);
    }
  }
  return { written, compared };
}
