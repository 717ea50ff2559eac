/**
 * @module emit/validators/ajv — the generator's ajv instances and the document a pin's validators are
 * compiled from: {@link createAjv} makes every instance (a pin's all-errors set, its accept-path set with
 * their overrides and class, a spec's tool validators), {@link validationDocument} is a pin's definitions as
 * its validators see them, and {@link compiledDocument} compiles that document once, every export of the pin
 * with it (the pipeline's first steps: index.ts).
 */
import Ajv, { type Options, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import type coreModule from 'ajv/dist/core.js';
import addFormats from 'ajv-formats';
import { pointer } from '../../errors.ts';
import { isObject, mapSchema, SCHEMA_URI, withoutKeywords, type JsonObject } from '../../load/schema.ts';
import type { PinPlan } from '../../plan/index.ts';
import { acceptPathClass } from './accept-path.ts';
import { shareExportSchemas } from './dedupe.ts';
import { STANDALONE_FORMATS } from './standalone.ts';

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

/**
 * The ajv class of a document's all-errors set: as the accept path's (accept-path.ts acceptPathClass),
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
 * compiled, made once per plan: index.ts emitValidators writes validators.js from it, then lets it go
 * ({@link releaseCompiledDocument}). Compiled up front in export order, which is the order standalone code
 * would compile them in, so the module's order of functions is the same whoever asks first (their names do
 * not depend on it: standalone.ts).
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

/**
 * Lets a pin's compiled document go after its last use (writing validators.js is the last in a run, and
 * keeping every pin's instance would only hold memory).
 */
export function releaseCompiledDocument(plan: PinPlan): void {
  compiledDocuments.delete(plan);
}

/** Each exported validator's schema, as a URI into {@link validationDocument}: export name → URI. */
export function validatorRefs(plan: PinPlan): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const v of plan.validators) refs[v.name] = `${plan.schemaId}#${pointer(plan.defsKey, v.ref.def, ...v.ref.tokens)}`;
  return refs;
}
