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
 * when validators.js held the all-errors set alone. Both files are ajv's output as it is (one statement a
 * line), not run through prettier: formatting them took most of a generation's time.
 *
 * Also the one ajv pipeline of the generator: {@link createAjv} makes every instance (the all-errors set,
 * the accept-path set with its overrides and class, a spec's tool validators), {@link standaloneEsm} turns
 * one into an ES module, and {@link compiledDocument} compiles a pin's validation document once.
 */
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import type coreModule from 'ajv/dist/core.js';
import addFormats from 'ajv-formats';
import { pointer } from '../errors.ts';
import { isObject, mapSchema, SCHEMA_URI, withoutKeywords, type JsonObject } from '../load/schema.ts';
import { typeAt, type PinPlan, type ValidatorPlan } from '../plan/index.ts';
import { ACCEPT_PATH_OPTIONS, acceptPathClass, discriminateUnions } from './accept-path.ts';
import { shareExportSchemas } from './dedupe.ts';
import { STANDALONE_FORMATS, standaloneEsm, standaloneParts, type StandaloneParts } from './standalone.ts';
import { render } from './templates.ts';

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
    ...(forStandalone ? { code: { source: true, esm: true, lines: true, formats: STANDALONE_FORMATS } } : {}),
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

export { standaloneEsm } from './standalone.ts';

/**
 * The ajv class of a document's all-errors set: as the accept path's (emit/accept-path.ts acceptPathClass),
 * Ajv2020 without its unevaluated-properties bookkeeping when no schema of the document needs it. The
 * report is the same: that bookkeeping makes a union try every branch after one has passed (to learn which
 * properties the others evaluate), and the errors of a union with a passing branch are dropped anyway.
 * test/generated/accept-path.test.ts compares the reports with ajv's own Ajv2020.
 */
function allErrorsClass(doc: JsonObject, draft: PinPlan['draft']): AjvClass {
  return acceptPathClass(doc, draft);
}

/** A pin's validation document compiled once by the all-errors ajv instance (see {@link compiledDocument}). */
export interface CompiledDocument {
  readonly ajv: ReturnType<typeof createAjv>;
  readonly doc: JsonObject;
  /** The class both sets compile with ({@link allErrorsClass}). */
  readonly Class: AjvClass;
  /** Export name → schema URI (see {@link validatorRefs}). */
  readonly refs: Readonly<Record<string, string>>;
  /** The compiled all-errors validator of export `name` (a definition's name for each definition). */
  validator(name: string): ValidateFunction;
}

const compiledDocuments = new WeakMap<PinPlan, CompiledDocument>();

/** Checks documents against the 2020-12 meta-schema (compiled once, on first use). */
let metaSchemaChecker: InstanceType<typeof Ajv2020.default> | undefined;

/**
 * The all-errors ajv instance of a pin with its validation document added and every exported validator
 * compiled, made once per plan: {@link emitValidators} writes validators.js from it, then lets it go (it is the last use in a run, and
 * keeping every pin's instance would only hold memory). Compiled up front in export order, which is the order
 * standalone code would compile them in, so the module's order of functions is the same whoever asks first
 * (their names do not depend on it: emit/standalone.ts).
 */
export function compiledDocument(plan: PinPlan): CompiledDocument {
  let compiled = compiledDocuments.get(plan);
  if (compiled) return compiled;
  const doc = validationDocument(plan);
  const Class = allErrorsClass(doc, plan.draft);
  // The class without unevaluated-properties support has no meta-schema: the document is checked against
  // 2020-12's by an instance that has it, as Ajv2020 checks every schema it is given.
  if (Class !== Ajv.default && Class !== Ajv2020.default) {
    metaSchemaChecker ??= new Ajv2020.default({ strict: false });
    if (!metaSchemaChecker.validateSchema(doc))
      throw new Error(`${plan.id}: schema is invalid: ${metaSchemaChecker.errorsText(metaSchemaChecker.errors)}`);
  }
  const ajv = createAjv(plan, true, {}, Class);
  ajv.addSchema(doc);
  const refs = validatorRefs(plan);
  shareExportSchemas(ajv, refs);
  const validators = new Map<string, ValidateFunction>();
  for (const [name, uri] of Object.entries(refs)) validators.set(name, ajv.getSchema(uri)!);
  compiled = {
    ajv,
    doc,
    Class,
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

/** Names the wrappers of validators.js use besides the validators': a validator may not take one. */
const RESERVED = new Set([FAST, 'formats', 'runtimeFormats', 'ajvFormats', 'data', 'valid']);

/**
 * validators.js from the all-errors module (its parts: emit/standalone.ts, so the megabyte of code is not
 * parsed again): ajv's `export const Name = validate_Name;` statements become one exported function per
 * name that asks the accept-path validator of the same name first (see the module comment).
 */
function withAcceptPath(plan: PinPlan, allErrors: StandaloneParts): string {
  const exported = new Map(allErrors.exported.map((e) => [e.name, e.target]));
  const names = plan.validators.map((v) => v.name);
  if (exported.size !== names.length || names.some((n) => !exported.has(n)))
    throw new Error(`standalone code for ${plan.id}: expected exports ${names.join(', ')}, found ${[...exported.keys()].join(', ')}`);
  const notAlias = allErrors.exported.find((e) => e.target === undefined);
  if (notAlias)
    throw new Error(`${plan.id} validators.js: an export that is not \`export const <name> = <validator>;\`: ${notAlias.text.slice(0, 80)}`);
  if (allErrors.otherExports) throw new Error(`standalone code for ${plan.id}: an export validators.js does not expect`);
  // A validator's name must not stand for anything else the wrapper uses: its locals, the namespace, ajv's names.
  const clash = names.find((n) => RESERVED.has(n) || /^(validate|schema|format|formats|pattern|func|wrapper|root)(\d*$|_)/.test(n));
  if (clash) throw new Error(`${plan.id}: a validator named ${clash} would clash with a name of the generated code`);
  // ajv's module opens with `"use strict";` and its imports; ours joins them, the all-errors code follows
  // (the exports, which come last, replaced by the wrappers).
  return render('validators.js', {
    head: allErrors.prologue.join('\n'),
    body: `${allErrors.declared.join('\n')}\n`,
    fast: FAST,
    exports: names.map((name) => ({ name, fn: exported.get(name)! })),
  });
}

/** Each exported validator's schema, as a URI into {@link validationDocument}: export name → URI. */
export function validatorRefs(plan: PinPlan): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const v of plan.validators) refs[v.name] = `${plan.schemaId}#${pointer(plan.defsKey, v.ref.def, ...v.ref.tokens)}`;
  return refs;
}

/**
 * The type a validator narrows to, qualified by the namespace validators.d.ts imports types.ts under: the
 * definition, or the property chain its ref leads through (plan/index.ts: `allOf/<n>` steps are not properties
 * of the type, which is the members' intersection).
 */
function validatorType(v: ValidatorPlan): string {
  return typeAt(`T.${v.ref.def}`, v.path);
}

export function emitValidators(plan: PinPlan): { js: string; fastJs: string; dts: string } {
  const { ajv, doc, Class, refs } = compiledDocument(plan);
  compiledDocuments.delete(plan);
  // The accept-path check in front of calls between validators needs a document without unevaluated-properties
  // bookkeeping (emit/precheck.ts): Ajv2020 is kept only for a document that has it.
  const precheck = Class === Ajv2020.default ? undefined : FAST;
  const allErrors = standaloneParts(ajv, refs, plan.id, { runtimeFormatsOnly: true, formatsModule: '@wiregen/core', precheck });
  const fastAjv = createAjv(plan, true, ACCEPT_PATH_OPTIONS, Class);
  fastAjv.addSchema(discriminateUnions(doc).doc);
  shareExportSchemas(fastAjv, refs);
  const fastJs = render('validators.fast.js', {
    code: standaloneEsm(fastAjv, refs, `${plan.id} (accept path)`, { runtimeFormatsOnly: true, formatsModule: '@wiregen/core', verdictOnly: true }),
  });
  const js = withAcceptPath(plan, allErrors);
  const dts = render('validators.d.ts', { validators: plan.validators.map((v) => ({ name: v.name, type: validatorType(v) })) });
  return { js, fastJs, dts };
}
