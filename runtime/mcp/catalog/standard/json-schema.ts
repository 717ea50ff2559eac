/**
 * @module mcp/catalog/standard/json-schema — the JSON Schema a Standard Schema (https://standardschema.dev) is
 * advertised as: a tool's inputSchema/outputSchema, a prompt's arguments, an elicitation form's requestedSchema.
 * MCP describes all of them in JSON Schema 2020-12 (https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage),
 * so the schema library converts its own schema, in this order:
 *
 * 1. `~standard.jsonSchema.input/output({ target: 'draft-2020-12' })`: the Standard JSON Schema interface
 *    (`StandardJSONSchemaV1` of `@standard-schema/spec` 1.1), which Zod 4 (4.2 and later) and ArkType 2.1.28+
 *    implement;
 * 2. otherwise the library's own converter, loaded only then: Valibot's `toJsonSchema` of
 *    `@valibot/to-json-schema` (Valibot 1.5 has no `~standard.jsonSchema`), Zod's `z.toJSONSchema`,
 *    ArkType's `.toJsonSchema()`.
 *
 * `input` is what the client sends (a tool's arguments, a form's answer: a field with a default is optional);
 * `output` is what the library's validate makes of a value (a tool's structuredContent, which the client
 * receives). No schema library is imported statically: a server that uses none loads none.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { isObject, type JsonObject } from '../../../jsonrpc/message.ts';

/** Which side of the schema: what it accepts (`input`) or what its validate returns (`output`). */
export type SchemaSide = 'input' | 'output';

/** Whether a schema given in code is a Standard Schema (rather than a JSON Schema object). */
export function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null) return false;
  const props = (schema as { '~standard'?: unknown })['~standard'];
  return isObject(props) && props['version'] === 1 && typeof props['validate'] === 'function';
}

/** A schema library's converter that is not the Standard JSON Schema interface. */
type Converter = (schema: StandardSchemaV1, side: SchemaSide) => Promise<unknown>;

/** The optional peers, imported by name only when a schema of theirs lacks `~standard.jsonSchema`. */
const importPeer = (name: string): Promise<Record<string, unknown>> => import(/* @vite-ignore */ name) as Promise<Record<string, unknown>>;

const CONVERTERS: Readonly<Record<string, Converter>> = {
  // https://valibot.dev/guides/json-schema/: toJsonSchema(schema, { target, typeMode, errorMode }).
  valibot: async (schema, side) => {
    const { toJsonSchema } = (await importPeer('@valibot/to-json-schema')) as { toJsonSchema: (s: unknown, c: object) => unknown };
    return toJsonSchema(schema, { target: 'draft-2020-12', typeMode: side, errorMode: 'throw' });
  },
  // https://zod.dev/json-schema: z.toJSONSchema(schema, { target, io }) (Zod 4 before ~standard.jsonSchema).
  zod: async (schema, side) => {
    const zod = (await importPeer('zod')) as { toJSONSchema?: (s: unknown, c: object) => unknown };
    if (!zod.toJSONSchema) throw new Error('this Zod has no toJSONSchema (Zod 4 has)');
    return zod.toJSONSchema(schema, { target: 'draft-2020-12', io: side });
  },
  // https://arktype.io/docs/json-schema: type.toJsonSchema() (ArkType before ~standard.jsonSchema).
  arktype: async (schema) => {
    const method = (schema as { toJsonSchema?: () => unknown }).toJsonSchema;
    if (typeof method !== 'function') throw new Error('this ArkType type has no toJsonSchema()');
    return method.call(schema);
  },
};

/** Why a module could not be loaded, said plainly for the one case that matters: the optional peer is not installed. */
function loadReason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND')
    return `${(e.message ?? '').split('\n')[0]} (install it beside the schema library)`;
  return (e.message ?? String(err)).split('\n')[0]!;
}

/**
 * The JSON Schema (2020-12) of one side of a Standard Schema, or a one-line reason it has none (a type JSON
 * Schema cannot express, such as Zod's `z.date()` or a transform's output; a library without a converter).
 */
export async function deriveJsonSchema(schema: StandardSchemaV1, side: SchemaSide): Promise<{ schema: JsonObject } | { problem: string }> {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  const vendor = props.vendor;
  let derived: unknown;
  try {
    if (isObject(props.jsonSchema) && typeof props.jsonSchema[side] === 'function') derived = props.jsonSchema[side]({ target: 'draft-2020-12' });
    else {
      const convert = CONVERTERS[vendor];
      if (!convert)
        return {
          problem: `the ${vendor} schema offers no JSON Schema (no ~standard.jsonSchema, StandardJSONSchemaV1); give a JSON Schema object instead`,
        };
      derived = await convert(schema, side);
    }
  } catch (err) {
    return { problem: `the ${vendor} schema cannot be written as JSON Schema (${side} side): ${loadReason(err)}` };
  }
  if (!isObject(derived)) return { problem: `the ${vendor} schema's JSON Schema is not an object` };
  return { schema: derived };
}
