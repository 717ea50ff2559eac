/**
 * @module mcp/catalog/standard/derive — the part of a code-first definition given as Standard Schemas
 * (https://standardschema.dev): each tool's `inputSchema`/`outputSchema` and each prompt's `arguments`
 * derived from them (json-schema.ts), and the parsers that validate with the library itself (validate.ts).
 * A schema that cannot be written as JSON Schema is one line of a DefinitionError, naming the item and why.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isObject, type JsonObject } from '../../../jsonrpc/message.ts';
import type { CatalogSpec, Parser, PromptSpec, ToolChecks, ToolSpec } from '../types.ts';
import { deriveJsonSchema, type SchemaSide } from './json-schema.ts';
import { standardParser } from './validate.ts';

/** The Standard Schemas of a code-first definition, by tool and prompt name. */
export interface StandardItems {
  readonly tools: Map<string, { readonly input?: StandardSchemaV1; readonly output?: StandardSchemaV1 }>;
  readonly prompts: Map<string, StandardSchemaV1>;
}

/** The JSON Schema of one side, or undefined with the problem added (`<kind> <name>: <pointer>: <reason>`). */
async function derive(schema: StandardSchemaV1, side: SchemaSide, where: string, problems: string[]): Promise<JsonObject | undefined> {
  const derived = await deriveJsonSchema(schema, side);
  if ('problem' in derived) {
    problems.push(`${where}: ${derived.problem}`);
    return undefined;
  }
  return derived.schema;
}

/**
 * A prompt's `arguments` ($def PromptArgument: name, title, description, required) from the JSON Schema of an
 * object: one per property, in order, `required` from the object's `required`. Prompt arguments are strings on
 * the wire ($def GetPromptRequestParams: `arguments: { [key: string]: string }`), so the schema is an object.
 */
function promptArguments(schema: JsonObject, where: string, problems: string[]): JsonObject[] | undefined {
  const properties = schema['properties'];
  if (schema['type'] !== 'object' || (properties !== undefined && !isObject(properties))) {
    problems.push(`${where}: prompt arguments are an object's properties; this schema is ${JSON.stringify(schema['type'] ?? 'untyped')}`);
    return undefined;
  }
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  return Object.entries(properties ?? {}).map(([name, property]) => {
    const p = isObject(property) ? property : {};
    return {
      name,
      ...(typeof p['title'] === 'string' ? { title: p['title'] } : {}),
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(required.has(name) ? { required: true } : {}),
    };
  });
}

/**
 * The spec with every Standard Schema replaced by its JSON Schema: a tool's input side (what the client sends)
 * as inputSchema, its output side (the library's output, what the client receives) as outputSchema, a prompt's
 * input side as its arguments. What cannot be derived is added to `problems`.
 */
export async function deriveSpec(spec: CatalogSpec, items: StandardItems, problems: string[]): Promise<CatalogSpec> {
  if (!items.tools.size && !items.prompts.size) return spec;
  const tools = await Promise.all(
    (spec.tools ?? []).map(async (tool): Promise<ToolSpec> => {
      const given = items.tools.get(tool.name);
      if (!given) return tool;
      const where = `tool ${tool.name}`;
      const input = given.input ? await derive(given.input, 'input', `${where}: /inputSchema`, problems) : undefined;
      const output = given.output ? await derive(given.output, 'output', `${where}: /outputSchema`, problems) : undefined;
      return { ...tool, ...(input ? { inputSchema: input as ToolSpec['inputSchema'] } : {}), ...(output ? { outputSchema: output } : {}) };
    }),
  );
  const prompts = await Promise.all(
    (spec.prompts ?? []).map(async (prompt): Promise<PromptSpec> => {
      const given = items.prompts.get(prompt.name);
      if (!given) return prompt;
      const where = `prompt ${prompt.name}: /arguments`;
      const schema = await derive(given, 'input', where, problems);
      const args = schema ? promptArguments(schema, where, problems) : undefined;
      return args ? { ...prompt, arguments: args } : prompt;
    }),
  );
  return { ...spec, ...(spec.tools ? { tools } : {}), ...(spec.prompts ? { prompts } : {}) };
}

/** The parsers of the Standard Schemas: each tool's input and output, each prompt's arguments. */
export function standardChecks(items: StandardItems): { tools: Record<string, ToolChecks>; prompts: Record<string, Parser> } {
  const tools: Record<string, ToolChecks> = {};
  for (const [name, { input, output }] of items.tools)
    tools[name] = { ...(input ? { parseInput: standardParser(input) } : {}), ...(output ? { parseOutput: standardParser(output) } : {}) };
  const prompts: Record<string, Parser> = {};
  for (const [name, schema] of items.prompts) prompts[name] = standardParser(schema);
  return { tools, prompts };
}
