/**
 * @module emit/validators/standalone — the names of ajv's standalone code, and its CommonJS references made ES
 * imports: the first rewrites of a set's module (index.ts standaloneParts runs them, with the others, in order).
 *
 * ajv numbers every function and constant it shares across a module in the order it compiles them
 * (`validate53`, `schema31`, `pattern4`), so one new `$ref` in one definition renumbers everything compiled
 * after it and a one-property schema change became a diff of thousands of lines. Here every such name is
 * derived from what it stands for instead: a validator from the JSON pointer of its schema
 * (`validate_CallToolRequest`, `validate_Tool_properties_inputSchema`), a schema constant likewise
 * (`schema_CallToolRequest`), a format from its name (`format_date_time`), a pattern from a hash of its
 * source, an ajv runtime function from its code. The names are read off ajv's compiled functions (each
 * carries its `source`: its name and the scope values it uses), and the renaming is done on the parsed
 * module (../js-edit.ts), never by text substitution. Local names inside a function (`_errs3`) are left:
 * they are numbered per function, so they only move when that function changes. And the statements are put
 * in the order of those names rather than in ajv's compile order, so a `$ref` that makes ajv reach a function
 * sooner does not move it (stable-order.ts, the last step).
 *
 * Formats: ajv writes `<code.formats><property>` for every format function, and {@link STANDALONE_FORMATS}
 * makes that the ES module of @wiregen/core (`formats.uri`); a format it lacks comes from ajv-formats, or,
 * with `runtimeFormatsOnly` (a pin's package, which must not load CommonJS at run time), is an error
 * ({@link formatImports}). ajv's run-time helpers, which its code `require`s, are imported
 * ({@link runtimeHelpers}).
 */
import { createHash } from 'node:crypto';
import { _, type AnySchemaObject, type ValidateFunction } from 'ajv';
import type coreModule from 'ajv/dist/core.js';
import type * as TS from 'typescript';
import { ts } from '../typescript.ts';
import { formats as runtimeFormats } from '@wiregen/runtime/core';
import { escapePointerToken } from '../../errors.ts';
import type { Edit } from '../js-edit.ts';
import type { AddedDeclaration } from './stable-order.ts';

type AjvInstance = InstanceType<typeof coreModule.default>;
type Compiled = ValidateFunction & { readonly source?: NonNullable<ValidateFunction['source']> };
export type ScopeName = NonNullable<NonNullable<ValidateFunction['source']>['scopeValues'][string]> extends Set<infer N> ? N : never;

/** The `code.formats` option of every standalone ajv instance: format functions are read off `formats`. */
export const STANDALONE_FORMATS = _`formats`;

/** The identifier ajv's generated code reads format functions from (see {@link STANDALONE_FORMATS}). */
const FORMATS = 'formats';

/** Every object and array of a schema document, by identity, with its JSON pointer. */
function pointerIndex(root: unknown): WeakMap<object, string> {
  const index = new WeakMap<object, string>();
  const walk = (node: unknown, at: string): void => {
    if (node === null || typeof node !== 'object' || index.has(node)) return;
    index.set(node, at);
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
    else for (const [k, v] of Object.entries(node)) walk(v, `${at}/${escapePointerToken(k)}`);
  };
  walk(root, '');
  return index;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** A JSON pointer as identifier characters: `/$defs/Tool/properties/inputSchema` → `Tool_properties_inputSchema`. */
function pointerLabel(pointer: string): string {
  const tokens = pointer.split('/').slice(1);
  if (tokens[0] === '$defs' || tokens[0] === 'definitions') tokens.shift();
  return tokens
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('_')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * What each shared name of the module stands for: the validators reachable from the exports (each with its
 * schema and the root document it belongs to) and every scope value they use.
 */
function reachable(ajv: AjvInstance, refs: Readonly<Record<string, string>>, label: string) {
  const functions = new Map<string, Compiled>();
  const values = new Map<string, ScopeName>();
  const visit = (fn: Compiled): void => {
    const source = fn.source;
    if (!source) throw new Error(`${label}: a validator without source code (the ajv instance needs code.source)`);
    if (functions.has(source.validateName.str)) return;
    functions.set(source.validateName.str, fn);
    for (const set of Object.values(source.scopeValues))
      for (const name of set ?? []) {
        values.set(name.str, name);
        const ref = name.value?.ref as { validate?: unknown } | undefined;
        if (name.prefix === 'validate' && typeof ref === 'function') visit(ref as Compiled);
        else if ((name.prefix === 'wrapper' || name.prefix === 'root') && typeof ref?.validate === 'function') visit(ref.validate as Compiled);
      }
  };
  for (const [name, uri] of Object.entries(refs)) {
    const fn = ajv.getSchema(uri) as Compiled | undefined;
    if (!fn) throw new Error(`${label}: no schema ${uri} for export ${name}`);
    visit(fn);
  }
  return { functions, values };
}

/**
 * Stable names for the shared names of the module (old → new). A validator and a schema constant are named
 * after the pointer of their schema in its document, prefixed by the export that names the document when the
 * module compiles several (a sample's tools); the rest after their content.
 */
export function stableNames(
  ajv: AjvInstance,
  refs: Readonly<Record<string, string>>,
  declared: readonly string[],
  initializers: ReadonlyMap<string, string>,
  label: string,
) {
  const { functions, values } = reachable(ajv, refs, label);
  const roots = new Map<unknown, WeakMap<object, string>>();
  const exportOfRoot = new Map<string, string>();
  for (const [name, uri] of Object.entries(refs)) exportOfRoot.set(uri.replace(/#$/, ''), name);
  const rootCount = new Set([...functions.values()].map((fn) => fn.schemaEnv.root)).size;
  const schemaLabel = (schema: unknown, root: { schema: AnySchemaObject | boolean; baseId: string }): string | undefined => {
    if (schema === null || typeof schema !== 'object') return undefined;
    let index = roots.get(root);
    if (!index) roots.set(root, (index = pointerIndex(root.schema)));
    const at = index.get(schema);
    if (at === undefined) return undefined;
    const rootLabel = rootCount > 1 ? (exportOfRoot.get(root.baseId.replace(/#$/, '')) ?? pointerLabel(`/${root.baseId}`)) : '';
    return [rootLabel, pointerLabel(at)].filter((s) => s !== '').join('_') || 'root';
  };
  const wanted = new Map<string, string>();
  for (const [old, fn] of functions)
    wanted.set(old, `validate_${schemaLabel(fn.schema, fn.schemaEnv.root) ?? hash(String(fn.source?.validateCode))}`);
  for (const [old, name] of values) {
    if (name.prefix === 'validate') continue;
    const code = initializers.get(old) ?? String(name.value?.code ?? '');
    const key = name.value?.key;
    if (name.prefix === 'schema') {
      const root = [...functions.values()].find((fn) => fn.source?.scopeValues['schema']?.has(name))?.schemaEnv.root;
      wanted.set(old, `schema_${(root && schemaLabel(name.value?.ref, root)) ?? hash(code)}`);
    } else if (name.prefix === 'formats' && typeof key === 'string') wanted.set(old, `format_${pointerLabel(`/${key}`) || hash(key)}`);
    else if (name.prefix === 'wrapper' || name.prefix === 'root') {
      const target = (name.value?.ref as { validateName?: { str: string } } | undefined)?.validateName?.str;
      wanted.set(old, `${name.prefix}_${(target && wanted.get(target)?.replace(/^validate_/, '')) || hash(code)}`);
    } else wanted.set(old, `${name.prefix}_${hash(code)}`);
  }
  // Two names wanting one new name (the same schema compiled twice, labels that sanitise alike) keep it in
  // module order, the later ones with a suffix: still stable unless those very names change.
  const renames = new Map<string, string>();
  const taken = new Set<string>(declared.filter((n) => !wanted.has(n)));
  for (const old of declared) {
    const want = wanted.get(old);
    if (want === undefined) continue;
    let name = want;
    for (let i = 2; taken.has(name); i++) name = `${want}_${i}`;
    taken.add(name);
    renames.set(old, name);
  }
  const unnamed = [...wanted.keys()].filter((n) => !renames.has(n));
  if (unnamed.length) throw new Error(`${label}: ajv names ${unnamed.join(', ')} are not declared at the top of its standalone code`);
  const leftover = declared.filter((n) => !renames.has(n) && /^(validate|schema|pattern|formats|func|wrapper|root)\d+$/.test(n));
  if (leftover.length) throw new Error(`${label}: no stable name for ${leftover.join(', ')}`);
  return { renames, values, functions, wanted };
}

/**
 * ajv's run-time helpers the module requires (`require("ajv/dist/runtime/ucs2length")` for minLength/maxLength,
 * `…/equal` for uniqueItems and object consts, …): each call, and the import that replaces it.
 */
export function runtimeHelpers(source: TS.SourceFile): { edits: Edit[]; imports: string[]; otherRequire: string | undefined } {
  const edits: Edit[] = [];
  const names = new Map<string, string>();
  let otherRequire: string | undefined;
  const visit = (node: TS.Node): void => {
    const isRequire = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require';
    const arg = isRequire ? node.arguments[0] : undefined;
    if (isRequire && !(arg && ts.isStringLiteral(arg) && arg.text.startsWith('ajv/dist/runtime/'))) {
      otherRequire ??= node.getText(source);
      return;
    }
    if (arg && ts.isStringLiteral(arg)) {
      let name = names.get(arg.text);
      if (name === undefined) names.set(arg.text, (name = `ajvRuntime_${arg.text.slice('ajv/dist/runtime/'.length).replace(/[^A-Za-z0-9]/g, '_')}`));
      // A CommonJS file: Node's ESM import gives its module.exports as the default export, loaders that honour
      // `__esModule` (bundlers, Vitest) give module.exports.default, which is wrapped back. An expression, not
      // a declaration of its own: the module's statements are reordered (inStableOrder), imports stay first.
      edits.push({ start: node.getStart(source), end: node.getEnd(), text: `(${name}.__esModule ? ${name} : { default: ${name} })` });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const imports = [...names].map(([path, name]) => `import ${name} from "${path}.js";`);
  return { edits, imports, otherRequire };
}

/**
 * The imports and declarations that give the module the format functions it uses (`values`: every scope
 * value of the module, {@link stableNames}): @wiregen/core's (imported from `formatsModule`), with ajv-formats' for
 * those it lacks, which `runtimeFormatsOnly` refuses. A format that is a regular expression is written into
 * the module as a literal and needs neither.
 */
export function formatImports(
  values: ReadonlyMap<string, ScopeName>,
  label: string,
  runtimeFormatsOnly: boolean,
  formatsModule: string,
): { imports: string[]; declarations: AddedDeclaration[] } {
  const used = [...values.values()].filter((n) => n.prefix === 'formats' && !(n.value?.ref instanceof RegExp)).map((n) => String(n.value?.key));
  const missing = [...new Set(used.filter((f) => !Object.hasOwn(runtimeFormats, f)))];
  if (runtimeFormatsOnly && missing.length)
    throw new Error(`${label}: format ${missing.join(', ')} has no implementation in @wiregen/core (core/formats.ts); add it there`);
  const imports: string[] = [];
  const declarations: AddedDeclaration[] = [];
  if (used.length && !missing.length) imports.push(`import { ${FORMATS} } from "${formatsModule}";`);
  if (missing.length) {
    imports.push(`import { ${FORMATS} as runtimeFormats } from "${formatsModule}";`, `import ajvFormats from "ajv-formats/dist/formats.js";`);
    // Read while the module loads (`const format_date = formats.date;`): it leads the declarations.
    declarations.push({ key: FORMATS, text: `const ${FORMATS} = { ...ajvFormats.fullFormats, ...runtimeFormats };`, readAtLoad: true });
  }
  return { imports, declarations };
}
