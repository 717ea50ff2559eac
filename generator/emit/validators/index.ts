/**
 * @module emit/validators — the validator pipeline: a pin's validators.js, validators.fast.js and
 * validators.d.ts (ajv standalone code compiled now, at generation time, one exported validator per
 * definition and per inline params the manifest points into, for the JSON Schema draft the pin declares),
 * and a spec's tool validators (../spec-module.ts). The emitters call this module only.
 *
 * Each pin gets two compiled sets of the same schemas. validators.fast.js, the accept-path set, answers only
 * yes or no, as fast as ajv can (accept-path.ts); validators.js holds the all-errors set, whose `.errors`
 * the runtime turns into error messages, and exports, per validator, a function that asks the accept-path one
 * first and runs the all-errors one only when the answer is no. So a valid message costs one fast
 * validation, and a failure leaves exactly the all-errors report on `.errors`. Both files are ajv's output as
 * it is (one statement a line), not run through prettier: formatting them took most of a generation's time.
 *
 * A pin's validators ({@link emitValidators}), in the order the steps run:
 *
 *  1. ajv.ts validationDocument: the pin's definitions with the keywords only validators apply merged in
 *     and the annotations left out (they do not validate; leaving them out halves the code).
 *  2. accept-path.ts acceptPathClass: Ajv2020 without its unevaluated-properties bookkeeping unless a schema
 *     uses those keywords (the same verdicts and reports for less work), for both sets.
 *  3. ajv.ts compiledDocument: the all-errors instance compiles every export once; dedupe.ts
 *     shareExportSchemas first registers each export's schema, so a `$ref` to it reuses its function.
 *  4. {@link standaloneParts} of the all-errors set (the rewrites below), with the precheck.
 *  5. accept-path.ts discriminateUnions: the accept-path document, whose tagged unions dispatch on the tag
 *     instead of trying each branch; compiled with ACCEPT_PATH_OPTIONS (first error only, no messages).
 *  6. {@link standaloneParts} of the accept-path set, verdict-only → validators.fast.js.
 *  7. {@link withAcceptPath}: the all-errors module's exports become functions that ask the accept-path
 *     set first → validators.js. It imports that set as `#accept-path`, which the package's `imports` map
 *     ({@link ACCEPT_PATH}) resolves by condition: validators.fast.js, or on a Worker the set of
 *     {@link emitAcceptNone} (every validator says no), so that a Worker's bundle holds one compiled set of
 *     the schemas, not two (a pin's two sets were 433 of a 506 KB Worker; a Worker's isolate runs a valid
 *     message through the all-errors set alone: BENCHMARKS.md "Worker bundle").
 *  8. validators.d.ts: each export typed as a guard of its generated type.
 *
 * The rewrites of ajv's standalone code of one set ({@link standaloneParts}), in the order they run. Each is
 * a list of edits located on the module as ajv wrote it, parsed once (../js-edit.ts), and none changes a
 * verdict or a report: test/generated/accept-path.test.ts holds both sets of every pin to ajv's own, and
 * each rewrite has tests of its own (test/generator/).
 *
 *  1. standalone.ts stableNames: every shared name after what it stands for (`validate_Tool`), not ajv's
 *     compile order (`validate53`), so one new `$ref` does not renumber the whole module.
 *  2. dedupe.ts duplicateFunctions: one function where ajv compiled a definition twice (a third of a pin's
 *     code, parsed on every cold start).
 *  3. standalone.ts formatImports: format functions from `@wiregen/core` (a spec module: its re-export
 *     `@wiregen/runtime/core`); a pin's package may load no other (ajv-formats is CommonJS).
 *  4. standalone.ts runtimeHelpers: ajv's `require()` of its run-time helpers become imports (an ES module).
 *  5. evaluated-props.ts: a write into a record of evaluated properties is guarded, as the record may be
 *     `true` and an ES module is strict, where that write throws.
 *  6. precheck.ts (a pin's all-errors set): a call to another export's validator asks its accept-path one
 *     first, so a valid part is not walked for errors.
 *  7. The all-errors set: instance-path.ts (functions take the instance path alone, not ajv's location
 *     object), then error-append.ts (a callee's errors appended, not the list copied; with
 *     error-truncate.ts, a passed union's errors dropped with `pop()`, not a `length` write), and
 *     error-objects.ts (each error object made by one function: 45 bytes fewer each in a bundle).
 *     The accept-path set instead: verdict-only.ts (no locations, no error lists, one shared error object).
 *  8. dedupe.ts droppedStatements: the merged functions and the constants nothing reads any more left out.
 *  9. stable-order.ts inStableOrder: the edits applied, the statements ordered by the names they declare.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type coreModule from 'ajv/dist/core.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { typeAt, type PinPlan, type ValidatorPlan } from '../../plan/index.ts';
import { parseModule, renameIdentifiers, topLevelInitializers, topLevelNames, type Edit } from '../js-edit.ts';
import { render } from '../templates.ts';
import { ACCEPT_PATH_OPTIONS, discriminateUnions } from './accept-path.ts';
import { compiledDocument, createAjv, releaseCompiledDocument } from './ajv.ts';
import { droppedStatements, duplicateFunctions, shareExportSchemas } from './dedupe.ts';
import { errorListEdits } from './error-append.ts';
import { ERROR_DECLARATION, ERROR_FUNCTION, errorObjectEdits } from './error-objects.ts';
import { evaluatedPropsEdits } from './evaluated-props.ts';
import { instancePathEdits } from './instance-path.ts';
import { precheckEdits, validatorsOfExports } from './precheck.ts';
import { inStableOrder, type StandaloneParts } from './stable-order.ts';
import { formatImports, runtimeHelpers, stableNames } from './standalone.ts';
import { VERDICT_ONLY_DECLARATION, verdictOnlyEdits, withoutEditsInside } from './verdict-only.ts';

export { acceptPathClass } from './accept-path.ts';
export { createAjv, type AjvClass } from './ajv.ts';
export type { StandaloneExport, StandaloneParts } from './stable-order.ts';

type AjvInstance = InstanceType<typeof coreModule.default>;

/**
 * How validators.js reaches the accept-path set: the specifier it imports, resolved by the `imports` map of
 * the pin's package.json (../package.ts) to `fast` or, under one of `noneConditions`, to `none`: `workerd`,
 * Cloudflare's runtime key (https://runtime-keys.proposal.wintercg.org/#workerd), which wrangler's esbuild
 * tries first, then `worker`, then `browser`; and `worker`, a Web worker's. `browser` is left to `fast`
 * (a page's validation is not a Worker's size limit). Node, Bun and Deno resolve `default`.
 * The files sit at the package's root, where sources and the published package both have them (a `#`
 * import is never aliased to sources as the packages are, so its target must exist in both layouts).
 */
export const ACCEPT_PATH = {
  specifier: '#accept-path',
  fast: 'validators.fast.js',
  none: 'validators.accept-none.js',
  noneConditions: ['workerd', 'worker'],
} as const;

/** A pin's validator modules: validators.js, validators.fast.js, validators.d.ts. */
export interface ValidatorModules {
  readonly js: string;
  readonly fastJs: string;
  readonly dts: string;
}

/** A pin's validators: the steps 1–8 of the module comment. */
export function emitValidators(plan: PinPlan): ValidatorModules {
  // 1–3. The document, the class and the all-errors instance with every export compiled.
  const { ajv, doc, Class, refs } = compiledDocument(plan);
  releaseCompiledDocument(plan);
  // 4. The all-errors set. The accept-path check in front of calls between validators needs a document
  // without unevaluated-properties bookkeeping (precheck.ts): Ajv2020 is kept only for a document that has it.
  const precheck = Class === Ajv2020.default ? undefined : FAST;
  const allErrors = standaloneParts(ajv, refs, plan.id, { runtimeFormatsOnly: true, formatsModule: '@wiregen/core', precheck, errorFunction: true });
  // 5–6. The accept-path set.
  const fastAjv = createAjv(plan, true, ACCEPT_PATH_OPTIONS, Class);
  fastAjv.addSchema(discriminateUnions(doc).doc);
  shareExportSchemas(fastAjv, refs);
  const fastJs = render('validators.fast.js', {
    code: standaloneEsm(fastAjv, refs, `${plan.id} (accept path)`, { runtimeFormatsOnly: true, formatsModule: '@wiregen/core', verdictOnly: true }),
  });
  // 7. validators.js.
  const js = withAcceptPath(plan, allErrors);
  // 8. validators.d.ts.
  const dts = render('validators.d.ts', { validators: plan.validators.map((v) => ({ name: v.name, type: validatorType(v) })) });
  return { js, fastJs, dts };
}

/** How {@link standaloneParts} writes a module. */
export interface StandaloneOptions {
  /** A format the runtime lacks is an error instead of an import of ajv-formats (a pin's package). Default false. */
  readonly runtimeFormatsOnly?: boolean;
  /**
   * The module the format checks are imported from: `@wiregen/core` in a pin's package (which depends on it,
   * ../package.ts). Default `@wiregen/runtime/core`, its re-export, for a spec module in a user's project
   * (which depends on the runtime).
   */
  readonly formatsModule?: string;
  /**
   * The functions take the data alone and leave nothing on `.errors` (verdict-only.ts): for a set whose
   * errors are never read. Default false (the all-errors rewrites: instance-path.ts, error-append.ts).
   */
  readonly verdictOnly?: boolean;
  /**
   * The namespace the accept-path set of the same schemas is imported under: calls to an exported validator
   * ask it first (precheck.ts). Default: none.
   */
  readonly precheck?: string;
  /**
   * The all-errors set's error objects made by one function (error-objects.ts): a pin's, which Worker
   * bundles carry. Default false (a spec's tool validators, a few objects each).
   */
  readonly errorFunction?: boolean;
}

/**
 * ajv's standalone code of `ajv`'s schemas as one ES module in its parts, a validator exported per `refs`
 * name (name → schema URI; the schemas already added to `ajv`, which must have `code.source` and
 * STANDALONE_FORMATS): the rewrites 1–9 of the module comment, in that order. `label` names the module in
 * errors.
 */
export function standaloneParts(ajv: AjvInstance, refs: Record<string, string>, label: string, options: StandaloneOptions = {}): StandaloneParts {
  const { runtimeFormatsOnly = false, formatsModule = '@wiregen/runtime/core', verdictOnly = false, precheck } = options;
  const source = parseModule(standaloneCode.default(ajv, refs), label, 'js', false);
  // 1. Stable names.
  const stable = stableNames(ajv, refs, topLevelNames(source), topLevelInitializers(source), label);
  const renameEdits = renameIdentifiers(source, stable.renames);
  // 2. One function for a schema ajv compiled twice: its callers renamed to the one kept.
  const merged = duplicateFunctions(source, renameEdits, stable.wanted);
  const renames = new Map(stable.renames);
  for (const [old, keep] of merged) renames.set(old, stable.renames.get(keep)!);
  const edits: Edit[] = renameEdits.map((e) => {
    const keep = merged.get(source.text.slice(e.start, e.end));
    return keep === undefined ? e : { ...e, text: stable.renames.get(keep)! };
  });
  // 3. Formats.
  const { imports, declarations } = formatImports(stable.values, label, runtimeFormatsOnly, formatsModule);
  // 4. ajv's run-time helpers. Every require() left is one of ajv's CommonJS references that no import
  // replaces (the edits only rename ajv's names and replace the helpers' calls, so none is added or removed).
  const helpers = runtimeHelpers(source);
  if (helpers.otherRequire) throw new Error(`standalone code for ${label} still calls require(): ${helpers.otherRequire}`);
  // 5. Writes into records of evaluated properties.
  edits.push(...helpers.edits, ...evaluatedPropsEdits(source));
  imports.push(...helpers.imports);
  // 6. The precheck.
  if (precheck !== undefined) edits.push(...precheckEdits(source, precheck, validatorsOfExports(ajv, refs, stable.functions)));
  const added = { imports, declarations };
  if (!verdictOnly) {
    // 7. The all-errors set: the instance path alone, errors appended, a passed union's popped, error
    // objects made by one function.
    const errorObjects = options.errorFunction ? errorObjectEdits(source) : [];
    if (errorObjects.length) declarations.push(ERROR_DECLARATION);
    edits.push(...instancePathEdits(source), ...errorListEdits(source), ...errorObjects);
    // 8–9. Dropped statements, then the edits applied in stable order.
    return inStableOrder(source, edits, renames, added, droppedStatements(source, renameEdits, merged, stable.renames), label);
  }
  // 7. The accept-path set: verdict only (an edit inside a replaced error object goes with it).
  const verdict = verdictOnlyEdits(source, label);
  declarations.push(VERDICT_ONLY_DECLARATION);
  // 8–9. Dropped statements, then the edits applied in stable order.
  const dropped = droppedStatements(source, withoutEditsInside(renameEdits, verdict), merged, stable.renames);
  return inStableOrder(source, [...withoutEditsInside(edits, verdict), ...verdict], renames, added, dropped, label);
}

/** {@link standaloneParts} as the text of the module: a spec's tool validators, a pin's accept-path set. */
export function standaloneEsm(ajv: AjvInstance, refs: Record<string, string>, label: string, options: StandaloneOptions = {}): string {
  const parts = standaloneParts(ajv, refs, label, options);
  return `${[...parts.prologue, '', ...parts.declared, ...parts.exported.map((e) => e.text)].join('\n')}\n`;
}

/** The namespace validators.js imports the accept-path set under. */
const FAST = 'fastSet';

/** Names the wrappers of validators.js use besides the validators': a validator may not take one. */
const RESERVED = new Set([FAST, ERROR_FUNCTION, 'formats', 'runtimeFormats', 'ajvFormats', 'data', 'valid']);

/**
 * validators.js from the all-errors module (its parts, so the megabyte of code is not parsed again): ajv's
 * `export const Name = validate_Name;` statements become one exported function per name that asks the
 * accept-path validator of the same name first (see the module comment).
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
    acceptPath: ACCEPT_PATH.specifier,
    exports: names.map((name) => ({ name, fn: exported.get(name)! })),
  });
}

/** validators.accept-none.js: every validator of `plan` answers no (see {@link ACCEPT_PATH}). */
export function emitAcceptNone(plan: PinPlan): string {
  return render('validators.accept-none.js', { names: plan.validators.map((v) => v.name) });
}

/**
 * The type a validator narrows to, qualified by the namespace validators.d.ts imports types.ts under: the
 * definition, or the property chain its ref leads through (plan/index.ts: `allOf/<n>` steps are not properties
 * of the type, which is the members' intersection).
 */
function validatorType(v: ValidatorPlan): string {
  return typeAt(`T.${v.ref.def}`, v.path);
}
