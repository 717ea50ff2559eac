/**
 * @module emit/validators/accept-path — the schema and the ajv options of the accept-path validators
 * (validators.fast.js), the ones every message goes through first.
 *
 * Why a second set: the exported validators must leave on `.errors`, after a failure, exactly the all-errors
 * report the runtime builds its error messages from (and golden tests compare byte for byte). Compiling for
 * that report (`allErrors: true`) makes a union run every branch and allocate an error object for each one
 * that fails, and Ajv2020 adds unevaluated-properties bookkeeping to every function. Most messages are valid,
 * so validators.js first asks a validator compiled only to answer yes or no, and runs the all-errors one only
 * when the answer is no (see index.ts). Both sets must accept and reject exactly the same data;
 * everything here changes how a verdict is reached, never the verdict:
 *
 * - `allErrors: false`, `messages: false`: stop at the first failure, no message strings.
 * - No unevaluated-properties tracking (2020-12 only), and only when no schema of the pin uses
 *   `unevaluated*` or `$dynamicRef` ({@link usedKeywords}): a pin that uses them keeps them.
 * - `inlineRefs: true`: small referenced schemas are inlined instead of called.
 * - Discriminated unions ({@link discriminateUnions}): an `anyOf` whose object branches each require a
 *   property with a distinct constant (`type: "text"` / `"image"` …, `method: "tools/call"` …) dispatches
 *   on that property (ajv's `discriminator` keyword) instead of trying the branches in turn.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import coreModule from 'ajv/dist/core.js';
import discriminatorModule from 'ajv/dist/vocabularies/discriminator/index.js';
import draft2020Module from 'ajv/dist/vocabularies/draft2020.js';
import dynamicModule from 'ajv/dist/vocabularies/dynamic/index.js';
import unevaluatedModule from 'ajv/dist/vocabularies/unevaluated/index.js';
import {
  isObject,
  mapSchema,
  refName,
  resolveSchemaRef,
  walkSchema,
  type Draft,
  type Json,
  type JsonObject,
  type SchemaBundle,
} from '../../load/schema.ts';
import type { AjvClass } from './ajv.ts';

/**
 * ajv's inner modules are CommonJS that set only `exports.default`: Node's ESM import hands over the exports
 * object, Vite's (under Vitest) the `default` itself.
 */
function defaultOf<T>(imported: { default: T }): T {
  return (imported as { default?: T }).default ?? (imported as unknown as T);
}
const AjvCore = defaultOf(coreModule);
const draft2020Vocabularies = defaultOf(draft2020Module);
const dynamicVocabulary = defaultOf(dynamicModule);
const unevaluatedVocabulary = defaultOf(unevaluatedModule);
const discriminator = defaultOf(discriminatorModule);

/** Every keyword used anywhere in the document's schemas (property names and data values are not keywords). */
export function usedKeywords(doc: JsonObject): Set<string> {
  const used = new Set<string>();
  walkSchema(doc, (schema) => {
    for (const key of Object.keys(schema)) used.add(key);
  });
  return used;
}

/** The keywords that need ajv's unevaluated-properties tracking or its dynamic-reference support. */
const UNEVALUATED = ['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor'];

/**
 * Ajv2020 without the `$dynamicRef` and `unevaluated*` vocabularies: Ajv2020 always turns on the
 * bookkeeping they need (its constructor forces `unevaluated: true` and `dynamicRef: true`), and that
 * bookkeeping is in every function it compiles. Only for documents that use none of those keywords; with
 * `strict`, one that did would still fail to compile ("unknown keyword"), not be silently ignored. No
 * meta-schema: the 2020-12 one needs `$dynamicRef`, and the all-errors instance has already checked the
 * document against it.
 */
class Ajv2020WithoutUnevaluated extends AjvCore {
  constructor(options: ConstructorParameters<typeof AjvCore>[0]) {
    super({ ...options, next: true, unevaluated: false, dynamicRef: false, meta: false, validateSchema: false });
  }

  override _addVocabularies(): void {
    super._addVocabularies();
    for (const vocabulary of draft2020Vocabularies)
      if (vocabulary !== dynamicVocabulary && vocabulary !== unevaluatedVocabulary) this.addVocabulary(vocabulary);
    if (this.opts.discriminator) this.addKeyword(discriminator);
  }
}

/**
 * How the accept-path options differ from the all-errors ones (ajv.ts createAjv takes them as
 * overrides): only in how fast a verdict is reached, see the module comment.
 */
export const ACCEPT_PATH_OPTIONS = { allErrors: false, messages: false, inlineRefs: true, discriminator: true } as const;

/**
 * The ajv class for the accept-path set of `doc`: Ajv2020 without unevaluated tracking when no schema of
 * `doc` needs it. Draft-07's Ajv has no such tracking to turn off; a 2020-12 document that uses those
 * keywords keeps Ajv2020.
 */
export function acceptPathClass(doc: JsonObject, draft: Draft): AjvClass {
  if (draft === 'draft-07') return Ajv.default;
  return [...usedKeywords(doc)].some((k) => UNEVALUATED.includes(k)) ? Ajv2020.default : Ajv2020WithoutUnevaluated;
}

/**
 * The definition a branch's `$ref` names (refs are local, `#/<defsKey>/<Name>`: load/schema.ts and
 * load/a2a.ts see to it), one step only: ajv's discriminator reads the schema a branch's `$ref` points to,
 * not further.
 */
function target(defs: Pick<SchemaBundle, 'defs'>, branch: JsonObject): JsonObject | undefined {
  const name = refName(branch);
  return name === undefined ? undefined : resolveSchemaRef(defs, { def: name, tokens: [] });
}

/**
 * The values a branch of a union fixes for property `tag`, or undefined when it does not: the branch (itself,
 * or the schema its lone `$ref` points to, which is what ajv's discriminator reads) must be an object schema
 * that requires `tag` and gives it a `const` string or an `enum` of strings. Then data the branch accepts is
 * an object whose `tag` is one of those strings.
 */
function tagValues(defs: Pick<SchemaBundle, 'defs'>, branch: Json, tag: string): string[] | undefined {
  if (!isObject(branch)) return undefined;
  let schema: JsonObject | undefined = branch;
  if ('$ref' in branch) {
    if (Object.keys(branch).length !== 1) return undefined;
    schema = target(defs, branch);
    if (!schema || '$ref' in schema) return undefined;
  }
  const required = schema['required'];
  const properties = schema['properties'];
  if (schema['type'] !== 'object' || !Array.isArray(required) || !required.includes(tag) || !isObject(properties)) return undefined;
  const property = properties[tag];
  if (!isObject(property)) return undefined;
  // ajv maps `const` when it is truthy, else every `enum` value; both must be strings that are not also
  // property names of a plain object (its mapping is one).
  const values = property['const'] !== undefined ? [property['const']] : property['enum'];
  if (!Array.isArray(values) || values.length === 0) return undefined;
  if (!values.every((v): v is string => typeof v === 'string' && v !== '' && !(v in Object.prototype) && v !== '__proto__')) return undefined;
  return values;
}

/**
 * The largest group of an `anyOf`'s branches that one property tells apart: every branch of the group fixes
 * that property (see {@link tagValues}) and no value is fixed by two of them. Ties go to the property name
 * that sorts first, so the output does not depend on the order properties were met.
 */
function discriminatingTag(defs: Pick<SchemaBundle, 'defs'>, branches: Json[]): { tag: string; group: number[] } | undefined {
  const candidates = new Set<string>();
  for (const branch of branches) {
    const schema = isObject(branch) && '$ref' in branch ? target(defs, branch) : branch;
    if (isObject(schema) && Array.isArray(schema['required'])) for (const r of schema['required']) if (typeof r === 'string') candidates.add(r);
  }
  let best: { tag: string; group: number[] } | undefined;
  for (const tag of [...candidates].sort()) {
    const group: number[] = [];
    const seen = new Set<string>();
    let distinct = true;
    branches.forEach((branch, i) => {
      const values = tagValues(defs, branch, tag);
      if (!values) return;
      group.push(i);
      for (const v of values) {
        if (seen.has(v)) distinct = false;
        seen.add(v);
      }
    });
    if (distinct && group.length >= 2 && (!best || group.length > best.group.length)) best = { tag, group };
  }
  return best;
}

/**
 * Rewrites each `anyOf` that has a group of branches told apart by one property (see
 * {@link discriminatingTag}) so that the group is one branch dispatching on that property:
 *
 *     anyOf: [A, B, C, X]  →  anyOf: [{ type: "object", discriminator: { propertyName: tag }, oneOf: [A, B, C] }, X]
 *
 * (or, when the group is every branch and the schema has no `type`, `oneOf` or `discriminator` of its own,
 * those three keywords replace the `anyOf`). The same data is accepted: an `anyOf` is unchanged by grouping
 * some of its branches into an `anyOf` of their own, and over the group `anyOf`, `oneOf` and the
 * discriminator agree, because a branch accepts only objects whose tag is one of its own values, which no
 * other branch of the group shares. `type: "object"` is needed because ajv's discriminator (and with it the
 * `oneOf` it takes over) does not apply to non-objects, which every branch rejects.
 *
 * Returns the rewritten document and, per rewritten union, its tag and how many of its branches it groups
 * (read by the tests, which check which unions are rewritten).
 */
export function discriminateUnions(doc: JsonObject): { doc: JsonObject; unions: { tag: string; branches: number; of: number }[] } {
  const unions: { tag: string; branches: number; of: number }[] = [];
  const container = doc['$defs'] ?? doc['definitions'];
  const defs = { defs: isObject(container) ? (container as Record<string, JsonObject>) : {} };
  const out = mapSchema(doc, (schema) => {
    const branches = schema['anyOf'];
    if (!Array.isArray(branches)) return schema;
    const found = discriminatingTag(defs, branches);
    if (!found) return schema;
    const { tag, group } = found;
    unions.push({ tag, branches: group.length, of: branches.length });
    const union: JsonObject = { type: 'object', discriminator: { propertyName: tag }, oneOf: group.map((i) => branches[i]!) };
    if (group.length === branches.length && !('type' in schema) && !('oneOf' in schema) && !('discriminator' in schema)) {
      const { anyOf: _, ...rest } = schema;
      return { ...rest, ...union };
    }
    // The group takes the place of its first branch; the other branches keep their order around it.
    const anyOf = branches.flatMap((branch, i) => (i === group[0] ? [union] : group.includes(i) ? [] : [branch]));
    return { ...schema, anyOf };
  });
  return { doc: out as JsonObject, unions };
}
