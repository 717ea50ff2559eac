/**
 * @module sdk/schema — the schemas an SDK-style server passes (Zod 4 or any Standard Schema,
 * https://standardschema.dev): validated by the library itself (`~standard.validate`, so defaults, transforms
 * and refinements hold, and the callback gets the parsed value), advertised as the JSON Schema the library
 * derives (`~standard.jsonSchema`, StandardJSONSchemaV1, draft 2020-12 as the MCP schema's `Tool.inputSchema`
 * expects: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool).
 */
import type { JsonObject } from '../jsonrpc/message.ts';

/** A Standard Schema issue: its message and where (the path of keys into the value). */
export interface SchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
}
type Validated = { readonly value: unknown; readonly issues?: undefined } | { readonly issues: readonly SchemaIssue[] };

/** StandardSchemaV1 with StandardJSONSchemaV1 (Zod ≥ 4.2, Valibot, ArkType): what the SDK's `StandardSchemaWithJSON` is. */
export interface StandardSchemaWithJSON<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): Validated | Promise<Validated>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: {
      input(options: { readonly target: string }): Record<string, unknown>;
      output(options: { readonly target: string }): Record<string, unknown>;
    };
  };
}
/** The value a schema parses to (its callback's argument). */
export type InferOutput<S> = S extends StandardSchemaWithJSON<unknown, infer O> ? O : never;

export function isStandardSchema(value: unknown): value is StandardSchemaWithJSON {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value &&
    typeof (value as StandardSchemaWithJSON)['~standard'].validate === 'function'
  );
}

/**
 * The JSON Schema the library derives for `io` (what the client sends, or what it receives). A tool's and a
 * prompt's input is an object ($def Tool.inputSchema: `type: "object"`), so `type` is set when the library
 * leaves it out (a discriminated union's `oneOf`) and a non-object root is refused.
 */
export function jsonSchemaOf(schema: StandardSchemaWithJSON, io: 'input' | 'output', what: string): JsonObject {
  const derive = schema['~standard'].jsonSchema?.[io];
  if (!derive) throw new TypeError(`${what}: the schema (${schema['~standard'].vendor}) does not implement ~standard.jsonSchema`);
  const json = derive({ target: 'draft-2020-12' }) as JsonObject;
  if (json['type'] !== undefined && json['type'] !== 'object')
    throw new TypeError(`${what}: the schema must describe an object, not ${JSON.stringify(json['type'])}`);
  return json['type'] === undefined ? { type: 'object', ...json } : json;
}

/**
 * An issue as the SDK words it, so a migrated server answers the same text: the dotted path of where it is,
 * then the library's message ("limit: Too big: expected number to be <=50").
 */
function issueText(issue: SchemaIssue): string {
  const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p));
  return path.length ? `${path.join('.')}: ${issue.message}` : issue.message;
}

/** The library's parsed value, or what it found wrong (every issue, `, `-separated as the SDK does). */
export async function validate(schema: StandardSchemaWithJSON, value: unknown): Promise<{ ok: true; value: unknown } | { ok: false; text: string }> {
  const result = await schema['~standard'].validate(value);
  if (result.issues) return { ok: false, text: result.issues.map(issueText).join(', ') };
  return { ok: true, value: result.value };
}

/** A prompt's advertised arguments from its schema's input side: name, description, required. */
export function promptArguments(schema: StandardSchemaWithJSON, what: string): JsonObject[] {
  const json = jsonSchemaOf(schema, 'input', what);
  const properties = (json['properties'] ?? {}) as Record<string, { description?: unknown }>;
  const required = (json['required'] ?? []) as unknown[];
  return Object.entries(properties).map(([name, p]) => ({
    name,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
    required: required.includes(name),
  }));
}
