/**
 * @module emit/validators — validators.js: ajv standalone code compiled now, at generation time, one
 * exported validator per definition (plus the inline params the manifest points into), for the JSON
 * Schema draft the pin declares; and validators.d.ts typing each as a guard for its generated type.
 *
 * Each pin gets two compiled sets of the same schemas. validators.fast.js answers only yes or no, as fast
 * as ajv can (first error only, discriminated unions: see emit/accept-path.ts); validators.js holds the
 * all-errors set, whose `.errors` the runtime turns into error messages, and exports, per validator, a
 * function that asks the fast one first and runs the all-errors one only when the answer is no. So a valid
 * message costs one fast validation, and a failure leaves exactly the all-errors report on `.errors`, as
 * when validators.js held the all-errors set alone. validators.fast.js is ajv's output as it is (one
 * statement a line), not run through prettier: formatting it would add seconds to every generation, and
 * validators.js is the one to read.
 *
 * Also the one ajv pipeline of the generator: {@link createAjv} makes every instance (the all-errors set,
 * the accept-path set with its overrides and class, a spec's tool validators), {@link standaloneEsm} turns
 * one into an ES module, and {@link compiledDocument} compiles a pin's validation document once.
 */
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import type coreModule from 'ajv/dist/core.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { pointer } from '../errors.ts';
import { isObject, mapSchema, SCHEMA_URI, withoutKeywords, type JsonObject } from '../load/schema.ts';
import type { PinPlan } from '../plan/index.ts';
import { formats as runtimeFormats } from '@wiregen/runtime/core';
import { ACCEPT_PATH_OPTIONS, acceptPathClass, discriminateUnions } from './accept-path.ts';

/** An ajv class: Ajv (draft-07), Ajv2020, or the accept path's Ajv2020 without unevaluated tracking. */
export type AjvClass = new (options: Options) => InstanceType<typeof coreModule.default>;

/** Keywords that only annotate; validators do not need them, and leaving them out halves the code. */
const ANNOTATIONS: ReadonlySet<string> = new Set(['description', 'title', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);

/** Each definition with the keywords only validators apply merged in (arrays appended, objects joined). */
function withValidationOnly(plan: PinPlan): JsonObject {
  const extra = plan.validationOnly ?? {};
  const defs: JsonObject = {};
  for (const [name, schema] of Object.entries(plan.defs)) {
    const add = extra[name];
    if (add === undefined) {
      defs[name] = schema;
      continue;
    }
    const merged: JsonObject = { ...schema };
    for (const [key, value] of Object.entries(add)) {
      const own = merged[key];
      merged[key] = Array.isArray(own) && Array.isArray(value) ? [...own, ...value] : isObject(own) && isObject(value) ? { ...own, ...value } : value;
    }
    defs[name] = merged;
  }
  return defs;
}

/** The schema document the validators are compiled from: the pin's definitions under a stable `$id`. */
export function validationDocument(plan: PinPlan): JsonObject {
  return {
    $schema: SCHEMA_URI[plan.draft],
    $id: plan.schemaId,
    [plan.defsKey]: mapSchema(withValidationOnly(plan), (schema) => withoutKeywords(schema, ANNOTATIONS)),
  };
}

/** The ajv options of the all-errors validators (the ones whose `.errors` the runtime reports). */
function allErrorsOptions(forStandalone: boolean): Options {
  return {
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    inlineRefs: false,
    ...(forStandalone ? { code: { source: true, esm: true, lines: true } } : {}),
  };
}

/**
 * An ajv instance with the formats the schemas use: by default the all-errors one for the pin's draft;
 * `overrides` change options (the accept path's, a spec's), `Class` the ajv class.
 */
export function createAjv(
  plan: Pick<PinPlan, 'draft'>,
  forStandalone: boolean,
  overrides: Options = {},
  Class: AjvClass = plan.draft === '2020-12' ? Ajv2020.default : Ajv.default,
) {
  const ajv = new Class({ ...allErrorsOptions(forStandalone), ...overrides });
  addFormats.default(ajv);
  return ajv;
}

/** How ajv's standalone code names a format it calls: `require("ajv-formats/dist/formats").fullFormats.uri` or `…["date-time"]`. */
const FORMAT_REF = /require\("ajv-formats\/dist\/formats"\)\.fullFormats(?:\.([A-Za-z_$][\w$]*)|\["([^"\\]+)"\])/g;

/**
 * One ESM module exporting a validator per `refs` name (name → schema URI; the schemas already added to
 * `ajv`, which must have `code.source`). `label` names the module in errors. ajv writes
 * `require("ajv-formats/dist/formats")` even in ESM output: each format becomes the runtime's ES module
 * version of it (`@wiregen/runtime/core` formats), and one the runtime lacks an import of ajv-formats, or,
 * with `runtimeFormatsOnly` (a pin's package, which must not load CommonJS at run time), an error.
 */
export function standaloneEsm(
  ajv: InstanceType<typeof coreModule.default>,
  refs: Record<string, string>,
  label: string,
  runtimeFormatsOnly = false,
): string {
  let js = standaloneCode.default(ajv, refs);
  const imports: string[] = [];
  const missing = new Set<string>();
  js = js.replace(FORMAT_REF, (_, dotted: string | undefined, quoted: string | undefined) => {
    const name = (dotted ?? quoted)!;
    if (Object.hasOwn(runtimeFormats, name)) return `formats[${JSON.stringify(name)}]`;
    missing.add(name);
    return `ajvFormats.fullFormats[${JSON.stringify(name)}]`;
  });
  if (runtimeFormatsOnly && missing.size)
    throw new Error(
      `${label}: format ${[...missing].join(', ')} has no implementation in @wiregen/runtime/core (runtime/core/formats.ts); add it there`,
    );
  if (js.includes('formats[')) imports.push(`import { formats } from "@wiregen/runtime/core";`);
  if (missing.size) imports.push(`import ajvFormats from "ajv-formats/dist/formats.js";`);
  if (imports.length) js = js.replace('"use strict";', `"use strict";\n${imports.join('\n')}`);
  // ajv's runtime helpers (ucs2length for minLength/maxLength, equal for uniqueItems and object consts…)
  // are required even in ESM output (`require("ajv/dist/runtime/x").default`): each becomes a default
  // import of the same CommonJS file. Node gives its module.exports as the default export; loaders that
  // honour `__esModule` (bundlers, Vitest) give module.exports.default, which is wrapped back.
  const helpers = new Map<string, string>();
  js = js.replace(/require\("(ajv\/dist\/runtime\/[\w/-]+)"\)/g, (_, path: string) => {
    let name = helpers.get(path);
    if (name === undefined) helpers.set(path, (name = `ajvRuntime${helpers.size}`));
    return name;
  });
  const helperLines = [...helpers].flatMap(([path, name]) => [
    `import ${name}Module from "${path}.js";`,
    `const ${name} = ${name}Module.__esModule ? ${name}Module : { default: ${name}Module };`,
  ]);
  if (helpers.size) js = js.replace('"use strict";', ['"use strict";', ...helperLines].join('\n'));
  if (/\brequire\(/.test(js)) throw new Error(`standalone code for ${label} still calls require(): ${/require\([^)]*\)/.exec(js)?.[0]}`);
  return js;
}

/** A pin's validation document compiled once by the all-errors ajv instance (see {@link compiledDocument}). */
export interface CompiledDocument {
  readonly ajv: ReturnType<typeof createAjv>;
  readonly doc: JsonObject;
  /** Export name → schema URI (see {@link validatorRefs}). */
  readonly refs: Readonly<Record<string, string>>;
  /** The compiled all-errors validator of export `name` (a definition's name for each definition). */
  validator(name: string): ValidateFunction;
}

const compiledDocuments = new WeakMap<PinPlan, CompiledDocument>();

/**
 * The all-errors ajv instance of a pin with its validation document added and every exported validator
 * compiled, made once per plan: {@link emitValidators} writes validators.js from it, then lets it go (it is the last use in a run, and
 * keeping every pin's instance would only hold memory). Compiled up front in export order, which is the order
 * standalone code would compile them in: ajv numbers its functions as it compiles them, so the generated code
 * is the same whoever asks first.
 */
export function compiledDocument(plan: PinPlan): CompiledDocument {
  let compiled = compiledDocuments.get(plan);
  if (compiled) return compiled;
  const ajv = createAjv(plan, true);
  const doc = validationDocument(plan);
  ajv.addSchema(doc);
  const refs = validatorRefs(plan);
  const validators = new Map<string, ValidateFunction>();
  for (const [name, uri] of Object.entries(refs)) validators.set(name, ajv.getSchema(uri)!);
  compiled = {
    ajv,
    doc,
    refs,
    validator: (name) => {
      const v = validators.get(name);
      if (!v) throw new Error(`${plan.id}: no validator ${name}`);
      return v;
    },
  };
  compiledDocuments.set(plan, compiled);
  return compiled;
}

/** The namespace validators.js imports the accept-path set under. */
const FAST = 'fastSet';

/**
 * validators.js from the all-errors module: ajv's `export const Name = validateN;` lines become one exported
 * function per name that asks the accept-path validator of the same name first (see the module comment).
 */
function withAcceptPath(plan: PinPlan, allErrors: string): string {
  const exported = new Map<string, string>();
  const code = allErrors.replace(/^export const ([A-Za-z_$][\w$]*) = (validate\d+);\n/gm, (_, name: string, fn: string) => {
    exported.set(name, fn);
    return '';
  });
  const names = plan.validators.map((v) => v.name);
  if (exported.size !== names.length || names.some((n) => !exported.has(n)))
    throw new Error(`standalone code for ${plan.id}: expected exports ${names.join(', ')}, found ${[...exported.keys()].join(', ')}`);
  if (/^export /m.test(code)) throw new Error(`standalone code for ${plan.id}: an export validators.js does not expect`);
  // A validator's name must not stand for anything else the wrapper uses: its locals, the namespace, ajv's names.
  const clash = names.find(
    (n) => [FAST, 'ajvFormats', 'data', 'valid'].includes(n) || /^(validate|schema|formats|pattern|func|wrapper|root)\d*$/.test(n),
  );
  if (clash) throw new Error(`${plan.id}: a validator named ${clash} would clash with a name of the generated code`);
  const wrappers = names.map((name) => {
    const fn = exported.get(name)!;
    return [
      `export const ${name} = function ${name}(data) {`,
      `  if (${FAST}.${name}(data)) {`,
      `    ${name}.errors = null;`,
      `    return true;`,
      `  }`,
      `  const valid = ${fn}(data);`,
      `  ${name}.errors = ${fn}.errors;`,
      `  return valid;`,
      `};`,
    ].join('\n');
  });
  const intro = [
    `// The all-errors validators: run only after the accept-path validator of validators.fast.js has said no,`,
    `// to leave every error on \`.errors\`. The exported validators are at the end of this file.`,
  ].join('\n');
  const outro = [
    `// The exported validators: the accept-path answer when it is yes (\`.errors\` null), else the all-errors`,
    `// validator's answer and errors.`,
    ...wrappers,
  ].join('\n');
  // ajv's module opens with `"use strict";` and its imports; ours joins them, the intro follows.
  const head = /^"use strict";\n(?:import .*\n)*/.exec(code)?.[0];
  if (head === undefined) throw new Error(`standalone code for ${plan.id} does not start with "use strict"`);
  const imports = `${head}import * as ${FAST} from "./validators.fast.js";\n\n${intro}\n`;
  return `${imports + code.slice(head.length)}\n${outro}\n`;
}

/** Each exported validator's schema, as a URI into {@link validationDocument}: export name → URI. */
export function validatorRefs(plan: PinPlan): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const v of plan.validators) refs[v.name] = `${plan.schemaId}#${pointer(plan.defsKey, v.ref.def, ...v.ref.tokens)}`;
  return refs;
}

export function emitValidators(plan: PinPlan): { js: string; fastJs: string; dts: string } {
  const { ajv, doc, refs } = compiledDocument(plan);
  compiledDocuments.delete(plan);
  const allErrors = standaloneEsm(ajv, refs, plan.id, true);
  const fastAjv = createAjv(plan, true, ACCEPT_PATH_OPTIONS, acceptPathClass(doc, plan.draft));
  fastAjv.addSchema(discriminateUnions(doc).doc);
  const fast = standaloneEsm(fastAjv, refs, `${plan.id} (accept path)`, true);
  const fastJs = [
    `// Accept-path validators: validators.js asks these first and uses the all-errors validators for the`,
    `// report only when they say no. ajv's output as it is, not formatted. See generator/emit/accept-path.ts.`,
    fast,
  ].join('\n');
  const js = withAcceptPath(plan, allErrors);
  const defNames = new Set(Object.keys(plan.defs));
  const qualify = (type: string) => type.replace(/\b[A-Za-z_]\w*\b/g, (id) => (defNames.has(id) ? `T.${id}` : id));
  const dts = [
    `import type { Validator } from "@wiregen/runtime/core";`,
    `import type * as T from "./types.ts";`,
    ``,
    `export type { Validator, ValidationError } from "@wiregen/runtime/core";`,
    ``,
    ...plan.validators.map((v) => `export declare const ${v.name}: Validator<${qualify(v.type)}>;`),
    ``,
  ].join('\n');
  return { js, fastJs, dts };
}
