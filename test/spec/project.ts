/**
 * @module test/spec/project — a user's project in a temporary folder, outside this repository: files written
 * from a map, node_modules linked to this repository's (what `npm install` would have put there), the
 * wiregen command run in it (in-process, or as the `wiregen` process), and a position helper for the
 * `file:line:column` of the errors.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, runCli } from '../helpers/project.ts';

export interface UserProject {
  readonly root: string;
  path(rel: string): string;
  read(rel: string): string;
  write(rel: string, text: string): void;
  /** Links node_modules to this repository's (what `npm install` would have put there). */
  linkNodeModules(): void;
  /** `wiregen <argv>` in-process, with this folder as the project root. */
  cli(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }>;
  /** `wiregen <argv>` as a process started in this folder (bin/wiregen.mjs), killed after `timeoutMs`. */
  spawn(argv: string[], timeoutMs?: number): Promise<{ code: number | null; stdout: string; stderr: string }>;
  dispose(): void;
}

/**
 * A project in a new temporary folder with `files`; by default an ES module package (a package.json with
 * `"type": "module"`, as `wiregen init` writes), `esm: false` for an empty folder.
 */
export function userProject(files: Readonly<Record<string, string>> = {}, options: { nodeModules?: boolean; esm?: boolean } = {}): UserProject {
  const root = mkdtempSync(join(tmpdir(), 'wiregen-user-'));
  const path = (rel: string) => join(root, rel);
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(path(rel)), { recursive: true });
    writeFileSync(path(rel), text);
  };
  const esm = options.esm === false ? {} : { 'package.json': '{ "type": "module" }\n' };
  for (const [rel, text] of Object.entries({ ...esm, ...files })) write(rel, text);
  const linkNodeModules = () => symlinkSync(join(ROOT, 'node_modules'), path('node_modules'), 'dir');
  if (options.nodeModules) linkNodeModules();
  return {
    root,
    path,
    read: (rel) => readFileSync(path(rel), 'utf8'),
    write,
    linkNodeModules,
    cli: (argv) => runCli(argv, root),
    spawn: (argv, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [join(ROOT, 'bin', 'wiregen.mjs'), ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
      }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** `line:column` (1-based) of the first occurrence of `needle` in `text` (after `after`, when given). */
export function position(text: string, needle: string, after = ''): string {
  const start = after ? text.indexOf(after) : 0;
  const at = text.indexOf(needle, start);
  if (start < 0 || at < 0) throw new Error(`position: ${JSON.stringify(needle)} not found`);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/** A user's MCP server spec: two tools (one with an outputSchema, one with maxLength), a resource, a template, a prompt. */
export const CALC = `# A user's server spec.
name: calc
serverInfo: { name: calc, version: 1.0.0 }
capabilities:
  handshake: { tools: {}, resources: {}, prompts: {} }
  stateless: { tools: {}, resources: {}, prompts: {} }
tools:
  - name: add
    inputSchema: { type: object, properties: { a: { type: number }, b: { type: number } }, required: [a, b] }
    outputSchema: { type: object, properties: { sum: { type: number } }, required: [sum] }
    output: structured
  - name: shout
    inputSchema: { type: object, properties: { text: { type: string, maxLength: 5 } }, required: [text] }
resources:
  - { uri: "docs://readme", name: readme, mimeType: text/markdown }
resourceTemplates:
  - { uriTemplate: "docs://page/{n}", name: page }
prompts:
  - name: greet
    arguments: [{ name: name, required: true }]
`;
