/**
 * @module mcp/code-first-compile — turns a code-first spec into the {@link FixtureDefinition} the catalogue
 * serves: each tool, resource, template and prompt checked against the newest revision's schema (the check
 * the generator runs on spec files, generator/load/fixtures.ts), each tool schema compiled once with ajv for
 * JSON Schema 2020-12 (with ajv-formats, as the generated fixture validators). ajv is imported here, when the
 * first code-first server is built, so servers that do not use this path never load it.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '../jsonrpc/message.ts';
import type { Behaviours, FixtureDefinition, FixtureSpec } from './catalog-types.ts';
import { LATEST_STATELESS, requireRevision } from './revisions.ts';
import type { Check } from '../core/index.ts';

/** The one draft MCP tool schemas are written in (schema `Tool.inputSchema.$schema`'s default). */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The spec's list sections, the definition each item must satisfy, and the field that names an item. */
const SECTIONS = [
  ['tools', 'Tool', 'name', 'tool'],
  ['resources', 'Resource', 'uri', 'resource'],
  ['resourceTemplates', 'ResourceTemplate', 'uriTemplate', 'resource template'],
  ['prompts', 'Prompt', 'name', 'prompt'],
] as const;
/** Fixture-only fields of a tool spec (catalog-types.ts ToolSpec), not the wire's. */
const FIXTURE_ONLY = new Set(['output', 'listed']);

/** An ajv instance for one definition's tool schemas (the modules load once, as every import does). */
async function loadAjv(): Promise<Ajv2020> {
  const [{ Ajv2020 }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  // As the generator compiles fixture schemas (generator/emit/fixture.ts): the author's schemas, so not strict.
  const instance = new Ajv2020({ allErrors: true, strict: false, inlineRefs: true });
  formats.default.default(instance); // CommonJS: `default` is module.exports, whose `default` is the plugin
  return instance;
}

function firstError(check: Check): string {
  const e = check.errors?.[0];
  return e ? `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}` : 'is invalid';
}

/** Compiles one tool schema; throws one line naming the tool and the schema. */
function compileSchema(instance: Ajv2020, tool: string, field: string, schema: JsonObject): Check {
  const declared = schema['$schema'];
  if (declared !== undefined && declared !== JSON_SCHEMA_2020_12)
    throw new Error(
      `tool ${tool}: /${field}/$schema is ${JSON.stringify(declared)}; MCP tool schemas are JSON Schema 2020-12 (${JSON_SCHEMA_2020_12})`,
    );
  try {
    return instance.compile(schema);
  } catch (err) {
    throw new Error(`tool ${tool}: /${field} is not a valid JSON Schema 2020-12: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** The definition of a code-first spec; rejects with one line naming what is wrong. */
export async function compileDefinition(spec: FixtureSpec, behaviours: Behaviours): Promise<FixtureDefinition> {
  const latest = await requireRevision(LATEST_STATELESS);
  for (const [section, def, key, kind] of SECTIONS) {
    const validate = latest.validators[def]!;
    for (const item of (spec[section] ?? []) as readonly JsonObject[]) {
      const wire = Object.fromEntries(Object.entries(item).filter(([k]) => section !== 'tools' || !FIXTURE_ONLY.has(k)));
      if (!validate(wire)) throw new Error(`${kind} ${String(item[key])}: ${firstError(validate)} (not a valid MCP ${latest.version} ${def})`);
    }
  }
  const instance = await loadAjv();
  const validators: Record<string, { input: Check; output?: Check }> = {};
  for (const tool of spec.tools ?? []) {
    const output = tool['outputSchema'] as JsonObject | undefined;
    validators[tool.name] = {
      input: compileSchema(instance, tool.name, 'inputSchema', tool.inputSchema),
      ...(output ? { output: compileSchema(instance, tool.name, 'outputSchema', output) } : {}),
    };
  }
  return { spec, behaviours, validators };
}
