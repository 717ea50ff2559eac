/**
 * @module emit/validators — validators.js: ajv standalone code compiled now, at generation time, one
 * exported validator per definition (plus the inline params the manifest points into), for the JSON
 * Schema draft the pin declares; and validators.d.ts typing each as a guard for its generated type.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { isObject, type Json, type JsonObject } from '../load/schema.ts';
import type { PinPlan } from '../plan/index.ts';

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

/** Builds the ajv instance the pin's draft calls for, with the formats the schemas use. */
export function createAjv(plan: PinPlan, forStandalone: boolean) {
  const options = {
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    inlineRefs: false,
    ...(forStandalone ? { code: { source: true, esm: true, lines: true } } : {}),
  } as const;
  const ajv = plan.draft === '2020-12' ? new Ajv2020.default(options) : new Ajv.default(options);
  addFormats.default(ajv);
  return ajv;
}

export function emitValidators(plan: PinPlan): { js: string; dts: string } {
  const ajv = createAjv(plan, true);
  ajv.addSchema(validationDocument(plan));
  const refs: Record<string, string> = {};
  for (const v of plan.validators)
    refs[v.name] = `${plan.schemaId}#/${plan.defsKey}/${escapeToken(v.ref.def)}${v.ref.tokens.map((t) => '/' + escapeToken(t)).join('')}`;
  // ajv writes `require("ajv-formats/dist/formats")` even in ESM output; make it an import.
  let js = standaloneCode.default(ajv, refs);
  if (js.includes(FORMATS_REQUIRE)) {
    js = js.split(FORMATS_REQUIRE).join('ajvFormats.fullFormats');
    js = js.replace('"use strict";', `"use strict";\nimport ajvFormats from "ajv-formats/dist/formats.js";`);
  }
  if (/\brequire\(/.test(js)) throw new Error(`standalone code for ${plan.id} still calls require(): ${/require\([^)]*\)/.exec(js)?.[0]}`);
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
  return { js, dts };
}
