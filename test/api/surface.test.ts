/**
 * The API report tool (scripts/api-report/) on a workspace of its own: what it lists for an entry point
 * (each export as the published `.d.ts` declares it, private members and bodies left out), where it points
 * instead (an export another entry point declares), what it counts in a generated pin, and how a changed
 * surface is reported (the first differing lines and the command that accepts them).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineDiff } from '../../scripts/api-report/diff.ts';
import { ACCEPT, compareReports, reports, writeReports } from '../../scripts/api-report/index.ts';
import { type PackageSurface, readSurfaces } from '../../scripts/api-report/surface.ts';

const exportsOf = (...entries: string[]) =>
  Object.fromEntries(entries.map((e) => [e, { types: `./dist/${e.slice(2) || 'index'}.d.ts`, default: `./dist/${e.slice(2) || 'index'}.js` }]));

/** A workspace: `lib` (two entry points and a file) and `gen/pin` (a generated pin). */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'ws', private: true, workspaces: ['lib', 'gen/*'] }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023'],
      types: [],
      strict: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      paths: { '@t/lib': ['./lib/index.ts'], '@t/lib/*': ['./lib/*/index.ts'], '@t/*': ['./gen/*/index.ts'] },
    },
  }),
  'lib/package.json': JSON.stringify({
    name: '@t/lib',
    type: 'module',
    exports: {
      ...exportsOf('.'),
      './sub': { types: './dist/sub/index.d.ts', default: './dist/sub/index.js' },
      './schema.json': './dist/schema.json',
    },
  }),
  'lib/index.ts': [
    "export * from './sub/index.ts';",
    "export { helper as renamed } from './util.ts';",
    "export type { Kept } from './util.ts';",
  ].join('\n'),
  'lib/util.ts': ['/** Helps. */', 'export function helper(): void {}', 'export class Kept {', '  x = 1;', '}'].join('\n'),
  'lib/sub/index.ts': [
    'export class Store {',
    '  #db = 1;',
    '  private cache = new Map<string, number>();',
    '  readonly name: string;',
    '  static readonly VERSION = 2;',
    '  constructor(name: string, private readonly size = 10) {',
    '    this.name = name;',
    '  }',
    '  /** Reads. */',
    '  get(key: string) {',
    '    return this.cache.get(key) ?? this.size;',
    '  }',
    '  protected touch(): void {}',
    '}',
    'export function pick(a: string): string;',
    'export function pick(a: number): number;',
    'export function pick(a: unknown) {',
    '  return a;',
    '}',
    "export const LIMITS = { max: 5, names: ['a', 'b'] } as const;",
    "export async function load(path = 'x', { deep = false }: { deep?: boolean } = {}) {",
    '  return path.length + (deep ? 1 : 0);',
    '}',
  ].join('\n'),
  'gen/pin/package.json': JSON.stringify({ name: '@t/pin', type: 'module', exports: exportsOf('.', './validators'), wiregen: { pin: 'p-1' } }),
  'gen/pin/index.ts': [
    "export type * from './types.ts';",
    "export * as validators from './validators.js';",
    "export { Store } from '@t/lib/sub';",
    "export const pin = { id: 'p-1' } as const;",
  ].join('\n'),
  'gen/pin/types.ts': 'export interface A {\n  a: string;\n}\nexport interface B {\n  b: number;\n}\nexport type C = A | B;\n',
  'gen/pin/validators.d.ts': "import type { A as T } from './types.ts';\nexport declare const A: (x: unknown) => x is T;\n",
  'gen/pin/validators.js': 'export const A = (x) => typeof x === "object";\n',
};

let root: string;
let surfaces: PackageSurface[];
let now: Map<string, string>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wiregen-api-'));
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  surfaces = readSurfaces(root);
  now = reports(root, surfaces);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const entry = (specifier: string) => {
  const found = surfaces.flatMap((s) => s.entries).find((e) => e.entry.specifier === specifier);
  if (!found) throw new Error(`no entry ${specifier}`);
  return found;
};
const texts = (specifier: string) => entry(specifier).items.map((i) => i.text);

describe('API report: the surface of an entry point', () => {
  it('prints each export as its .d.ts declares it: no bodies, no private members, defaults made optional', () => {
    expect(texts('@t/lib/sub')).toEqual([
      'const LIMITS: {\n    readonly max: 5;\n    readonly names: readonly ["a", "b"];\n};',
      [
        'class Store {',
        '    readonly name: string;',
        '    static readonly VERSION: 2;',
        '    constructor(name: string, size?: number);',
        '    get(key: string): number;',
        '    protected touch(): void;',
        '}',
      ].join('\n'),
      'function load(path?: string, { deep }?: {\n    deep?: boolean;\n}): Promise<number>;',
      'function pick(a: string): string;\nfunction pick(a: number): number;',
    ]);
  });

  it('points at the entry point that declares a re-export, and marks renamed and type-only exports', () => {
    expect(texts('@t/lib')).toEqual([
      '/* type only */ class Kept {\n    x: number;\n}',
      'const LIMITS; // from @t/lib/sub',
      'class Store; // from @t/lib/sub',
      'function load; // from @t/lib/sub',
      'function pick; // from @t/lib/sub',
      'function helper(): void; // exported as renamed',
    ]);
    expect(entry('@t/lib').items.map((i) => `${i.kind} ${i.name}`)).toEqual([
      'class Kept',
      'const LIMITS',
      'class Store',
      'function load',
      'function pick',
      'function renamed',
    ]);
  });

  it("counts a pin's schema types and validators instead of listing them; lists the rest", () => {
    const pin = entry('@t/pin');
    expect(pin.counted).toEqual([
      { file: 'types.ts', kind: 'interface', count: 2 },
      { file: 'types.ts', kind: 'type', count: 1 },
    ]);
    expect(texts('@t/pin')).toEqual([
      'class Store; // from @t/lib/sub',
      'const pin: {\n    readonly id: "p-1";\n};',
      'namespace validators {\n  // 1 × const declared in validators.d.ts (generated from the schema: counted, not listed)\n}',
    ]);
    expect(entry('@t/pin/validators').counted).toEqual([{ file: 'validators.d.ts', kind: 'const', count: 1 }]);
  });

  it('lists an exported file by its path, and writes one report per package', () => {
    expect(entry('@t/lib/schema.json')).toMatchObject({ items: [], entry: { file: 'dist/schema.json' } });
    expect([...now.keys()]).toEqual(['lib.api.md', 'pin.api.md']);
    expect(now.get('lib.api.md')).toContain(
      '## `@t/lib/sub`\n\nFrom `lib/sub/index.ts`. 4 exports: 1 class, 1 const, 2 function.\n\n```ts\nconst LIMITS',
    );
  });
});

describe('API report: a changed surface', () => {
  it('fails with the first differing lines and the command that accepts the change', () => {
    writeReports(root, now);
    expect(compareReports(root, now)).toBe('');
    const changed = new Map(now);
    changed.set('lib.api.md', now.get('lib.api.md')!.replace('function pick(a: number): number;\n', ''));
    changed.set('new.api.md', 'x');
    const problems = compareReports(root, changed);
    expect(problems).toContain('api/lib.api.md differs from the surface now:\n@@ line ');
    expect(problems).toContain('\n function pick(a: string): string;\n-function pick(a: number): number;\n ```');
    expect(problems).toContain('api/new.api.md is missing');
    expect(problems).toContain(`run \`${ACCEPT}\``);
    changed.delete('pin.api.md');
    expect(compareReports(root, changed)).toContain('api/pin.api.md reports no workspace package');
  });

  it('shows a long diff cut short, saying how much is left out', () => {
    const before = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace(/line (\d+)/g, (_, n) => `line ${n}${Number(n) % 2 ? '' : ' changed'}`);
    const diff = lineDiff(before, after, { limit: 10 }).split('\n');
    expect(diff).toHaveLength(11);
    expect(diff.slice(0, 4)).toEqual(['@@ line 1 (now 1) @@', '-line 0', '+line 0 changed', ' line 1']);
    expect(diff[10]).toMatch(/^… 100 changed lines in all, \d+ more not shown$/);
  });
});
