/**
 * @module scripts/api-report/surface — the public surface of every workspace package, read with the
 * TypeScript compiler API from the sources of its entry points (one program for all of them, resolved
 * through tsconfig.json's `paths` as the repository's typecheck resolves them; nothing is built first).
 *
 * Each export is printed once, where it is declared: an entry point that re-exports what another entry
 * point (of its package or of another package) declares names it and points there, so the report of
 * `@wiregen/runtime` shows it is core + jsonrpc + transports. A generated pin's schema types and validators
 * (its types.ts and validators.d.ts, one per `$def` of the pinned schema) are counted, not listed: they are
 * generated, committed and reviewed as generated/, and listing them would bury the hand-shaped surface.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { DeclarationPrinter } from './declarations.ts';
import { type EntryPoint, type WorkspacePackage, workspacePackages } from './packages.ts';

export interface Item {
  /** The exported name. */
  readonly name: string;
  /** What it is: `class`, `interface`, `type`, `function`, `const`, `enum`, `namespace` (`+`-joined when merged). */
  readonly kind: string;
  /** The declaration as a `.d.ts` shows it, or one line naming where it is declared. */
  readonly text: string;
}

/** Exports counted rather than listed: how many of one kind one file declares. */
export interface Counted {
  readonly file: string;
  readonly kind: string;
  readonly count: number;
}

export interface EntrySurface {
  readonly entry: EntryPoint;
  readonly items: readonly Item[];
  readonly counted: readonly Counted[];
}

export interface PackageSurface {
  readonly pkg: WorkspacePackage;
  readonly entries: readonly EntrySurface[];
}

const posix = (p: string) => p.split(sep).join('/');
const byName = (a: { name: string; kind: string }, b: { name: string; kind: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0;

/** The kinds a symbol declares, in a fixed order. */
function kindsOf(symbol: ts.Symbol): string[] {
  const kinds: string[] = [];
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) kinds.push('class');
  if (f & ts.SymbolFlags.Interface) kinds.push('interface');
  if (f & ts.SymbolFlags.TypeAlias) kinds.push('type');
  if (f & ts.SymbolFlags.Enum) kinds.push('enum');
  if (f & ts.SymbolFlags.Function) kinds.push('function');
  if (f & ts.SymbolFlags.Variable) {
    const decl = symbol.declarations?.find(ts.isVariableDeclaration);
    const flags = decl ? ts.getCombinedNodeFlags(decl) : 0;
    kinds.push(flags & ts.NodeFlags.Const ? 'const' : flags & ts.NodeFlags.Let ? 'let' : 'var');
  }
  if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) kinds.push('namespace');
  return kinds.length ? kinds : ['unknown'];
}

/** Whether `symbol` reaches its target only through `export type`/`import type` (its value is not exported). */
function typeOnly(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  for (let s: ts.Symbol | undefined = symbol; s && s.flags & ts.SymbolFlags.Alias; s = checker.getImmediateAliasedSymbol(s)) {
    if (s.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))) return true;
  }
  return false;
}

export class SurfaceReader {
  readonly #root: string;
  readonly #packages: WorkspacePackage[];
  readonly #program: ts.Program;
  readonly #checker: ts.TypeChecker;
  readonly #printer: DeclarationPrinter;
  /** Each exported symbol → the entries that export it, in package and `exports` order. */
  readonly #exporters = new Map<ts.Symbol, { pkg: WorkspacePackage; entry: EntryPoint }[]>();
  readonly #exportsOf = new Map<EntryPoint, ts.Symbol[]>();

  constructor(root: string) {
    this.#root = root;
    this.#packages = workspacePackages(root);
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const sources = this.#packages.flatMap((p) => p.entries.flatMap((e) => (e.source ? [join(root, e.source)] : [])));
    this.#program = ts.createProgram(sources, { ...options, noEmit: true });
    this.#checker = this.#program.getTypeChecker();
    this.#printer = new DeclarationPrinter(this.#checker);
    for (const pkg of this.#packages) {
      for (const entry of pkg.entries) {
        const symbols = entry.source ? this.#moduleExports(entry.source) : [];
        this.#exportsOf.set(entry, symbols);
        for (const s of symbols) {
          const target = this.#target(s);
          this.#exporters.set(target, [...(this.#exporters.get(target) ?? []), { pkg, entry }]);
        }
      }
    }
  }

  get packages(): readonly WorkspacePackage[] {
    return this.#packages;
  }

  surface(pkg: WorkspacePackage): PackageSurface {
    return { pkg, entries: pkg.entries.map((entry) => this.#entrySurface(pkg, entry)) };
  }

  #moduleExports(source: string): ts.Symbol[] {
    const file = this.#program.getSourceFile(join(this.#root, source));
    if (!file) throw new Error(`${source}: not in the program`);
    const module = this.#checker.getSymbolAtLocation(file);
    return module ? this.#checker.getExportsOfModule(module) : [];
  }

  #target(symbol: ts.Symbol): ts.Symbol {
    return symbol.flags & ts.SymbolFlags.Alias ? this.#checker.getAliasedSymbol(symbol) : symbol;
  }

  #entrySurface(pkg: WorkspacePackage, entry: EntryPoint): EntrySurface {
    const { items, counted } = this.#items(pkg, entry, this.#exportsOf.get(entry) ?? []);
    return { entry, items, counted };
  }

  #items(pkg: WorkspacePackage, entry: EntryPoint, symbols: readonly ts.Symbol[]): { items: Item[]; counted: Counted[] } {
    const items: Item[] = [];
    const counts = new Map<string, Counted>();
    for (const symbol of symbols) {
      const target = this.#target(symbol);
      const kind = kindsOf(target).join('+');
      const decl = target.declarations?.[0];
      const file = decl && posix(relative(this.#root, decl.getSourceFile().fileName));
      const module = kind === 'namespace' && decl !== undefined && ts.isSourceFile(decl);
      if (!module && file && pkg.pin && file.startsWith(`${pkg.dir}/`) && /(^|\/)(types\.ts|validators\.d\.ts)$/.test(file)) {
        const key = `${file}\0${kind}`;
        const c = counts.get(key);
        counts.set(key, { file: file.slice(pkg.dir.length + 1), kind, count: (c?.count ?? 0) + 1 });
        continue;
      }
      const only = typeOnly(this.#checker, symbol) && target.flags & ts.SymbolFlags.Value ? '/* type only */ ' : '';
      const renamed = target.name !== symbol.name && target.name !== 'default' && kind !== 'namespace' ? ` as ${symbol.name}` : '';
      const home = file && this.#home(target, file);
      let text: string;
      if (home && home !== entry.specifier) text = `${only}${kind} ${target.name}${renamed}; // from ${home}`;
      else if (module) text = this.#namespace(pkg, entry, symbol.name, target);
      else text = `${only}${this.#declarations(target)}${renamed ? ` // exported${renamed}` : ''}`;
      items.push({ name: symbol.name, kind, text: this.#importPaths(text) });
    }
    items.sort(byName);
    const counted = [...counts.values()].sort((a, b) => (a.file + a.kind < b.file + b.kind ? -1 : 1));
    return { items, counted };
  }

  /** `export * as name from './file'`: the module's exports, by the same rules, inside `namespace name {}`. */
  #namespace(pkg: WorkspacePackage, entry: EntryPoint, name: string, module: ts.Symbol): string {
    const { items, counted } = this.#items(pkg, entry, this.#checker.getExportsOfModule(module));
    const body = [...counted.map(countLine), ...items.map((i) => i.text)].flatMap((t) => t.split('\n')).map((l) => (l ? `  ${l}` : l));
    return [`namespace ${name} {`, ...body, '}'].join('\n');
  }

  /**
   * `import("/abs/path/generated/a2a-1.0/index")`, which the checker writes for a type it cannot name, as the
   * entry point that file is (`import("@wiregen/a2a-1.0")`), or else as a path in the repository.
   */
  #importPaths(text: string): string {
    return text.replace(/import\("([^"]+)"\)/g, (whole, path: string) => {
      if (!isAbsolute(path)) return whole;
      const rel = posix(relative(this.#root, path));
      const entry = this.#packages.flatMap((p) => p.entries).find((e) => e.source?.replace(/(\.d)?\.ts$/, '') === rel);
      return `import("${entry?.specifier ?? rel}")`;
    });
  }

  #declarations(symbol: ts.Symbol): string {
    const texts = (symbol.declarations ?? []).flatMap((d) => this.#printer.print(d) ?? []);
    return texts.length ? texts.join('\n') : `${kindsOf(symbol).join('+')} ${symbol.name}; // no declaration to print`;
  }

  /**
   * Where a declaration belongs: the package whose folder holds its file, and of that package's entry points
   * exporting it, the one whose source folder holds the file most closely (the first in `exports` order when
   * none does). A package outside the workspace (node_modules) is named by its package name. Undefined when
   * its own package does not export it: then it is printed wherever it is exported.
   */
  #home(symbol: ts.Symbol, file: string): string | undefined {
    const modules = file.lastIndexOf('node_modules/');
    if (modules >= 0) {
      const parts = file.slice(modules + 'node_modules/'.length).split('/');
      return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    }
    const owner = this.#packages.filter((p) => file.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
    const candidates = (this.#exporters.get(symbol) ?? []).filter((e) => e.pkg === owner).map((e) => e.entry);
    let best: EntryPoint | undefined;
    let depth = -1;
    for (const entry of candidates) {
      const dir = posix(dirname(entry.source!));
      const d = file.startsWith(`${dir}/`) ? dir.split('/').length : 0;
      if (d > depth) [best, depth] = [entry, d];
    }
    return best?.specifier;
  }
}

export function countLine(c: Counted): string {
  return `// ${c.count} × ${c.kind} declared in ${c.file} (generated from the schema: counted, not listed)`;
}

/** Every workspace package's surface. */
export function readSurfaces(root: string): PackageSurface[] {
  const reader = new SurfaceReader(resolve(root));
  return reader.packages.map((p) => reader.surface(p));
}
