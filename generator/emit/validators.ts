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
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { isObject, type Json, type JsonObject } from '../load/schema.ts';
import type { PinPlan } from '../plan/index.ts';
import { createAcceptPathAjv, discriminateUnions } from './accept-path.ts';

/** Keywords that only annotate; validators do not need them, and leaving them out halves the code. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);

function stripAnnotations(node: Json): Json {
  if (Array.isArray(node)) return node.map(stripAnnotations);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (ANNOTATIONS.has(k)) continue;
    if (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions' || k === 'dependentSchemas') {
      const inner: JsonObject = {};
      for (const [name, sub] of Object.entries(v as JsonObject)) inner[name] = stripAnnotations(sub);
      out[k] = inner;
    } else if (k === 'enum' || k === 'const' || k === 'required') out[k] = v;
    else out[k] = stripAnnotations(v);
  }
  return out;
}

const FORMATS_REQUIRE = 'require("ajv-formats/dist/formats").fullFormats';

function escapeToken(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The schema document the validators are compiled from: the pin's definitions under a stable `$id`. */
export function validationDocument(plan: PinPlan): JsonObject {
  return {
    $schema: plan.draft === '2020-12' ? 'https://json-schema.org/draft/2020-12/schema' : 'http://json-schema.org/draft-07/schema#',
    $id: plan.schemaId,
    [plan.defsKey]: stripAnnotations(plan.defs as JsonObject),
  };
}

/** The ajv options of the all-errors validators (the ones whose `.errors` the runtime reports). */
function allErrorsOptions(forStandalone: boolean) {
  return {
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    inlineRefs: false,
    ...(forStandalone ? { code: { source: true, esm: true, lines: true } } : {}),
  } as const;
}

/** Builds the ajv instance the pin's draft calls for, with the formats the schemas use. */
export function createAjv(plan: PinPlan, forStandalone: boolean) {
  const options = allErrorsOptions(forStandalone);
  const ajv = plan.draft === '2020-12' ? new Ajv2020.default(options) : new Ajv.default(options);
  addFormats.default(ajv);
  return ajv;
}

/** Compiles `doc` into one ESM module exporting a validator per `refs` name (name → schema URI). */
function standaloneModule(plan: PinPlan, ajv: Ajv.default, doc: JsonObject, refs: Record<string, string>): string {
  ajv.addSchema(doc);
  // ajv writes `require("ajv-formats/dist/formats")` even in ESM output; make it an import.
  let js = standaloneCode.default(ajv, refs);
  if (js.includes(FORMATS_REQUIRE)) {
    js = js.split(FORMATS_REQUIRE).join('ajvFormats.fullFormats');
    js = js.replace('"use strict";', `"use strict";\nimport ajvFormats from "ajv-formats/dist/formats.js";`);
  }
  if (/\brequire\(/.test(js)) throw new Error(`standalone code for ${plan.id} still calls require(): ${/require\([^)]*\)/.exec(js)?.[0]}`);
  return js;
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
  const clash = names.find((n) => [FAST, 'ajvFormats', 'data', 'valid'].includes(n) || /^(validate|schema|formats|pattern|func|wrapper|root)\d*$/.test(n));
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
  return imports + code.slice(head.length) + `\n${outro}\n`;
}

/** Each exported validator's schema, as a URI into {@link validationDocument}: export name → URI. */
export function validatorRefs(plan: PinPlan): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const v of plan.validators)
    refs[v.name] = `${plan.schemaId}#/${plan.defsKey}/${escapeToken(v.ref.def)}${v.ref.tokens.map((t) => '/' + escapeToken(t)).join('')}`;
  return refs;
}

export function emitValidators(plan: PinPlan): { js: string; fastJs: string; dts: string } {
  const refs = validatorRefs(plan);
  const doc = validationDocument(plan);
  const allErrors = standaloneModule(plan, createAjv(plan, true), doc, refs);
  const fastAjv = createAcceptPathAjv(doc, plan.draft, allErrorsOptions(true));
  const fast = standaloneModule(plan, fastAjv, discriminateUnions(doc).doc, refs);
  const fastJs = [
    `// Accept-path validators: validators.js asks these first and uses the all-errors validators for the`,
    `// report only when they say no. ajv's output as it is, not formatted. See generator/emit/accept-path.ts.`,
    fast,
  ].join('\n');
  const js = withAcceptPath(plan, allErrors);
  const defNames = new Set(Object.keys(plan.defs));
  const qualify = (type: string) => type.replace(/\b[A-Za-z_]\w*\b/g, (id) => (defNames.has(id) ? `T.${id}` : id));
  const dts = [
    `import type * as T from "./types.ts";`,
    ``,
    `/** An ajv error: where (instancePath, a JSON pointer into the data) and why. */`,
    `export interface ValidationError {`,
    `  instancePath: string;`,
    `  schemaPath: string;`,
    `  keyword: string;`,
    `  params: Record<string, unknown>;`,
    `  message?: string;`,
    `}`,
    ``,
    `/** A precompiled validator: a type guard that leaves its errors on \`.errors\` when it returns false. */`,
    `export interface Validator<T> {`,
    `  (data: unknown): data is T;`,
    `  errors?: ValidationError[] | null;`,
    `}`,
    ``,
    ...plan.validators.map((v) => `export declare const ${v.name}: Validator<${qualify(v.type)}>;`),
    ``,
  ].join('\n');
  return { js, fastJs, dts };
}
