/**
 * @module spec/tool-schema — a tool's inputSchema and outputSchema as the spec path reads them: the JSON
 * Schema dialect each is written in, the ajv class that validates it, and the check load.ts runs on it.
 *
 * MCP's dialect rule (https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage, the
 * same in https://modelcontextprotocol.io/specification/2026-07-28/basic#json-schema-usage): a schema without
 * `$schema` is JSON Schema 2020-12; a schema MAY name another dialect in `$schema`; an implementation MUST
 * support 2020-12, SHOULD document which others it supports, and MUST report an unsupported one as an
 * error. Here the other is draft-07, the dialect of the pins up to 2025-06-18 and what zod-to-json-schema
 * writes (so the tools of servers on the TypeScript SDK v1, server-everything's among them:
 * test/fixtures/published-tools/); any other `$schema` is an error naming the two.
 *
 * A `format` must be one ajv-formats knows (the validators check every one of them): ajv, when not strict,
 * would ignore an unknown one with a warning, so a typo (`format: dat`) would silently validate nothing.
 */
import Ajv, { type Options } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { formatsUsed } from '@wiregen/core';
import { isObject, SCHEMA_URI, type Draft, type Json, type JsonObject } from '../load/schema.ts';
import { describeError } from '../load/validate-input.ts';
import { DATA, MAPS, withUniqueIds } from './schema-uris.ts';

/** The dialects a tool schema may be written in, as errors and the README name them. */
export const TOOL_DIALECTS = `JSON Schema 2020-12 (the default, ${SCHEMA_URI['2020-12']}) or draft-07 (${SCHEMA_URI['draft-07']})`;

/** What errors call a dialect. */
export const DIALECT_NAME: Readonly<Record<Draft, string>> = { '2020-12': 'JSON Schema 2020-12', 'draft-07': 'JSON Schema draft-07' };

/**
 * The ajv options of a spec's tool validators, as overrides of the generator's all-errors ones
 * (emit/validators/ajv.ts createAjv): tool schemas are the spec author's, so not strict, and references are
 * inlined (ajv's default). The load-time compile check uses them too, so what loads also emits.
 */
export const TOOL_AJV = { strict: false, inlineRefs: true } as const satisfies Options;

/** `$schema` as ajv looks it up: an empty fragment is no fragment. */
const withoutEmptyFragment = (uri: string) => uri.replace(/#$/, '');

/**
 * The dialect of a tool schema: 2020-12 without `$schema`, the one `$schema` names when it is 2020-12's or
 * draft-07's meta-schema (with or without the empty fragment, as ajv finds them), undefined otherwise.
 */
export function toolDialect(schema: JsonObject): Draft | undefined {
  const declared = schema['$schema'];
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return undefined;
  const uri = withoutEmptyFragment(declared);
  return (['2020-12', 'draft-07'] as const).find((d) => withoutEmptyFragment(SCHEMA_URI[d]) === uri);
}

/** The ajv class of a dialect. */
export const ajvClassOf = (dialect: Draft) => (dialect === '2020-12' ? Ajv2020.default : Ajv.default);

/** A load-time checker of one dialect: meta-schema, formats, compile. */
type Checker = InstanceType<typeof Ajv2020.default> | InstanceType<typeof Ajv.default>;

/** Makes the checkers of tool schemas, one per dialect, each with ajv-formats' formats (as the validators have). */
export function toolSchemaCheckers(): Readonly<Record<Draft, Checker>> {
  const make = (dialect: Draft) => {
    const ajv = new (ajvClassOf(dialect))({ ...TOOL_AJV, allErrors: true });
    addFormats.default(ajv);
    return ajv;
  };
  return { '2020-12': make('2020-12'), 'draft-07': make('draft-07') };
}

type Report = (at: string, message: string) => void;

/**
 * Checks a tool's inputSchema or outputSchema (at JSON pointer `at`): its dialect is one of
 * {@link TOOL_DIALECTS}, it is valid against that dialect's meta-schema, every `format` in it is known, and
 * ajv compiles it. Reports each problem; the first kind found stops the rest (they would restate it).
 */
export function checkToolSchema(checkers: Readonly<Record<Draft, Checker>>, schema: unknown, at: string, tool: string, report: Report): void {
  if (!isObject(schema)) return; // the MCP Tool check reports it
  const dialect = toolDialect(schema);
  if (dialect === undefined) {
    report(`${at}/$schema`, `tool ${tool} declares $schema ${JSON.stringify(schema['$schema'])}; tool schemas are ${TOOL_DIALECTS}`);
    return;
  }
  const ajv = checkers[dialect];
  const { $schema, ...rest } = schema;
  if (!ajv.validateSchema(rest)) {
    const seen = new Set<string>();
    for (const e of ajv.errors ?? []) {
      if (seen.has(e.instancePath)) continue; // the first reason per location: the others restate it
      seen.add(e.instancePath);
      report(at + e.instancePath, `not a valid ${DIALECT_NAME[dialect]}: ${describeError(e)}`);
    }
    return;
  }
  const unknown = formatsUsed(rest, dialect).filter(({ format }) => !Object.hasOwn(ajv.formats, format));
  for (const { pointer, format } of unknown)
    report(at + pointer, `unknown format ${JSON.stringify(format)} (the formats are ajv-formats': ${Object.keys(ajv.formats).join(', ')})`);
  if (unknown.length) return;
  try {
    // Under a name of its own, as the validators compile it (emit/spec-module.ts): another schema may reuse its `$id`.
    ajv.compile(withUniqueIds(rest, dialect, `urn:wiregen:check:${at.replace(/[^A-Za-z0-9]+/g, '.')}`));
  } catch (err) {
    report(at, `tool ${tool}: ajv cannot compile this schema: ${(err as Error).message}`);
  }
}

/** Keywords that only annotate: validators do not need them (emit/validators/ajv.ts ANNOTATIONS, for a pin). */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * A tool schema without its annotations, for its validator: the same verdicts, less code (a description
 * would be in the module once per schema constant). Names (of properties, definitions, required and
 * dependent properties) and data are kept as they are.
 */
export function withoutAnnotations(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    if (DATA.has(key)) out[key] = value;
    else if (MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutAnnotations(v)]));
    else out[key] = withoutAnnotations(value);
  }
  return out;
}
