/**
 * @module sdk/schema — the schemas an SDK-style server passes (Zod 4 or any Standard Schema,
 * https://standardschema.dev): validated by the library itself (`~standard.validate`, so defaults, transforms
 * and refinements hold, and the callback gets the parsed value), advertised as the JSON Schema the library
 * derives (mcp/catalog/standard/json-schema.ts: `~standard.jsonSchema`, else the library's own converter),
 * draft 2020-12 as the MCP schema's `Tool.inputSchema` expects
 * (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool).
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonObject } from '../jsonrpc/message.ts';
import { deriveJsonSchema } from '../mcp/catalog/standard/json-schema.ts';

/**
 * A schema of any Standard Schema library (the SDK's `StandardSchemaWithJSON`; one without
 * `~standard.jsonSchema` is converted by its library's converter when it has one).
 */
export type StandardSchemaWithJSON<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output>;
/** The value a schema parses to (its callback's argument). */
export type InferOutput<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : never;

/**
 * The JSON Schema the library derives for `io` (what the client sends, or what it receives). A tool's and a
 * prompt's input is an object ($def Tool.inputSchema: `type: "object"`), so `type` is set when the library
 * leaves it out (a discriminated union's `oneOf`) and a non-object root is refused, as the SDK does.
 */
export async function jsonSchemaOf(schema: StandardSchemaV1, io: 'input' | 'output', what: string): Promise<JsonObject> {
  const derived = await deriveJsonSchema(schema, io);
  if ('problem' in derived) throw new TypeError(`${what}: ${derived.problem}`);
  const json = derived.schema;
  if (io === 'output' || json['type'] === 'object') return json;
  if (json['type'] !== undefined) throw new TypeError(`${what}: the schema must describe an object, not ${JSON.stringify(json['type'])}`);
  return { type: 'object', ...json };
}

/**
 * A problem the library found, as the SDK words it, so a migrated server answers the same text: the dotted path of where it is,
 * then the library's message ("limit: Too big: expected number to be <=50").
 */
function problemText(problem: StandardSchemaV1.Issue): string {
  const path = (problem.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p));
  return path.length ? `${path.join('.')}: ${problem.message}` : problem.message;
}

/** The library's parsed value, or what it found wrong (every problem, `, `-separated as the SDK does). */
export async function validate(schema: StandardSchemaV1, value: unknown): Promise<{ ok: true; value: unknown } | { ok: false; text: string }> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) return { ok: false, text: result.issues.map(problemText).join(', ') };
  return { ok: true, value: result.value };
}

/** A prompt's advertised arguments from its schema's input side: name, description, required (always said, as the SDK does). */
export function promptArguments(json: JsonObject): JsonObject[] {
  const properties = (json['properties'] ?? {}) as Record<string, { description?: unknown }>;
  const required = (json['required'] ?? []) as unknown[];
  return Object.entries(properties).map(([name, p]) => ({
    name,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
    required: required.includes(name),
  }));
}
