/**
 * @module test/generator-cases/harness — runs the generator on one case of test/generator-cases/: a small
 * schema, its manifest (and for A2A its proto), described by `case.json`, generated as a pin of its own into
 * a throw-away schemas folder (the repository's pins and manifest schemas, a pins.json with the case's
 * sha256s), and compared with the case's committed `expected/` package.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../../generator/context.ts';
import { emitPin } from '../../generator/emit/index.ts';
import type { FileSet } from '../../generator/format/index.ts';
import { loadAndCheck } from '../../generator/generate.ts';
import { ROOT } from '../helpers/project.ts';

export const CASES_DIR = join(ROOT, 'test', 'generator-cases');

/** `case.json`: what the case is a pin of, and what it shows. */
export interface CaseSpec {
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  /** The feature the case is for (one line). */
  readonly feature: string;
  /** A2A: the proto file of the case. */
  readonly proto?: string;
}

/** Every case: the folders of test/generator-cases/ that hold a case.json. */
export function caseNames(): string[] {
  return readdirSync(CASES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(CASES_DIR, d.name, 'case.json')))
    .map((d) => d.name)
    .sort();
}

export function caseSpec(name: string): CaseSpec {
  return JSON.parse(readFileSync(join(CASES_DIR, name, 'case.json'), 'utf8')) as CaseSpec;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Generates the package of case `name` (from its `schema.json`, or `schemaFile`), as the generator writes a
 * pin's folder: file name → text.
 */
export async function generateCase(name: string, schemaFile = 'schema.json'): Promise<FileSet> {
  const spec = caseSpec(name);
  const dir = join(CASES_DIR, name);
  const tmp = mkdtempSync(join(tmpdir(), 'wiregen-case-'));
  try {
    mkdirSync(join(tmp, 'manifest'));
    mkdirSync(join(tmp, 'case'));
    copyFileSync(join(ROOT, 'schemas', 'pins.schema.json'), join(tmp, 'pins.schema.json'));
    copyFileSync(join(ROOT, 'schemas', 'manifest', 'manifest.schema.json'), join(tmp, 'manifest', 'manifest.schema.json'));
    copyFileSync(join(dir, schemaFile), join(tmp, 'case', 'schema.json'));
    copyFileSync(join(dir, 'manifest.yaml'), join(tmp, 'manifest', 'case.yaml'));
    if (spec.proto) copyFileSync(join(dir, spec.proto), join(tmp, 'case', 'schema.proto'));
    const files = ['case/schema.json', ...(spec.proto ? ['case/schema.proto'] : [])].map((path) => ({
      path,
      original: `${name}/${path === 'case/schema.json' ? schemaFile : spec.proto}`,
      sha256: sha256(join(tmp, path)),
    }));
    const id = `${spec.protocol}-${spec.revision}`;
    const pin = {
      id,
      protocol: spec.protocol,
      revision: spec.revision,
      // An MCP case's revision ("0.1") is not a date: the pin is a draft, generated but never negotiated.
      ...(spec.protocol === 'mcp' ? { served: false } : {}),
      schema: 'case/schema.json',
      ...(spec.proto ? { proto: 'case/schema.proto' } : {}),
      manifest: 'manifest/case.yaml',
      source: { repository: 'test/generator-cases', tag: name, license: 'MIT' },
      files,
    };
    writeFileSync(join(tmp, 'pins.json'), JSON.stringify({ pins: [pin] }));
    const ctx = createContext({ root: tmp, schemasDir: tmp, only: [id], log: () => {} });
    const { plans } = loadAndCheck(ctx);
    return await emitPin(plans[0]!);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The committed expected package of case `name`: file name → text. */
export function expectedFiles(name: string): Map<string, string> {
  const dir = join(CASES_DIR, name, 'expected');
  if (!existsSync(dir)) return new Map();
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/** Writes the generated package as the case's expected output (`CASES_ACCEPT=1`; check it by hand before committing). */
export function acceptFiles(name: string, files: FileSet): void {
  const dir = join(CASES_DIR, name, 'expected');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of files) writeFileSync(join(dir, file), text);
}

/** How many lines differ between two texts (lines only in one, counted on both sides: `diff`'s `<` and `>` lines). */
export function changedLines(before: string, after: string): number {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence over lines, after the common head and tail are set aside.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length * y.length > 50_000_000) throw new Error(`changedLines: ${x.length} × ${y.length} lines is too large a difference to measure`);
  let prev = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const row = new Uint32Array(y.length + 1);
    for (let j = 1; j <= y.length; j++) row[j] = x[i - 1] === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  const common = prev[y.length]!;
  return x.length - common + (y.length - common);
}
