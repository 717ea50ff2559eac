/**
 * @module mcp/catalog/code-first-compile — turns a code-first spec into the {@link CatalogDefinition} the catalog
 * serves: each tool, resource, template and prompt checked against the newest revision's schema (the check
 * the generator runs on spec files, generator/load/samples.ts), each tool schema checked against its
 * dialect's meta-schema and compiled once with ajv, JSON Schema 2020-12 or draft-07 (with ajv-formats, as the
 * generated sample validators). Every problem found is one line of a {@link DefinitionError}. ajv is imported
 * here, when the first code-first server is built, so servers that do not use this path never load it.
 */
import type { Ajv } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { Behaviours, CatalogDefinition, CatalogSpec, ToolChecks } from './types.ts';
import { deriveSpec, standardChecks, type StandardItems } from './standard/derive.ts';
import { schemaReason, type SchemaError } from '../server/errors.ts';
import { LATEST_STATELESS, requireRevision } from '../revisions.ts';
import { formatsUsed, type Check, type SchemaDialect } from '../../core/index.ts';

/**
 * What is wrong with a code-first definition, thrown by `.tool()`/`.resource()`/`.prompt()` (a name used
 * twice, an item added after the build) and by `definition()`/`build()` (an item the schema's Tool, Resource,
 * ResourceTemplate or Prompt rejects, a tool schema its dialect's meta-schema rejects, an unknown format): one
 * line per problem, each naming the item and the JSON pointer inside it (`tool add: /inputSchema/properties/a/type: …`).
 */
export class DefinitionError extends Error {
  /** `<kind> <name>: <JSON pointer>: <reason>`, one per problem. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'DefinitionError';
    this.problems = problems;
  }
}

/** The default dialect of MCP tool schemas (schema `Tool.inputSchema.$schema`'s default). */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** The other dialect a tool schema may name in `$schema` (the generator's spec/tool-schema.ts accepts the same two). */
export const JSON_SCHEMA_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/**
 * The dialect of a tool schema: 2020-12 without `$schema`, the one `$schema` names when it is 2020-12's or
 * draft-07's meta-schema (with or without the empty fragment, as ajv finds them). MCP: a schema MAY name
 * another dialect, an implementation MUST support 2020-12 and report one it does not support
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage, the same in 2026-07-28).
 */
function dialectOf(schema: JsonObject): SchemaDialect | undefined {
  const declared = schema['$schema'];
  if (declared === undefined) return '2020-12';
  const bare = (uri: unknown) => (typeof uri === 'string' ? uri.replace(/#$/, '') : undefined);
  if (bare(declared) === bare(JSON_SCHEMA_2020_12)) return '2020-12';
  if (bare(declared) === bare(JSON_SCHEMA_DRAFT_07)) return 'draft-07';
  return undefined;
}

const DIALECT_NAME: Readonly<Record<SchemaDialect, string>> = { '2020-12': 'JSON Schema 2020-12', 'draft-07': 'JSON Schema draft-07' };

/** The spec's list sections, the definition each item must satisfy, and the field that names an item. */
const SECTIONS = [
  ['tools', 'Tool', 'name', 'tool'],
  ['resources', 'Resource', 'uri', 'resource'],
  ['resourceTemplates', 'ResourceTemplate', 'uriTemplate', 'resource template'],
  ['prompts', 'Prompt', 'name', 'prompt'],
] as const;
/** Spec-only fields of a tool spec (types.ts ToolSpec), not the wire's. */
const SPEC_ONLY = new Set(['output', 'listed']);

type AjvInstance = Ajv2020 | Ajv;

/** Makes an ajv instance of a dialect, with ajv-formats' formats. */
type AjvMaker = (dialect: SchemaDialect) => AjvInstance;

/** The maker of ajv instances for one definition's tool schemas (the modules load once, as every import does). */
async function loadAjv(): Promise<AjvMaker> {
  const [{ Ajv2020 }, { Ajv }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv'), import('ajv-formats')]);
  // As the generator compiles spec tool schemas (generator/spec/tool-schema.ts): the author's schemas, so not strict.
  const options = { allErrors: true, strict: false, inlineRefs: true };
  return (dialect) => {
    const instance = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
    formats.default.default(instance); // CommonJS: `default` is module.exports, whose `default` is the plugin
    return instance;
  };
}

/** Whether a schema names any resource with `$id` (ajv keys schemas by it, so one instance holds only one of a name). */
function hasIds(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasIds);
  return typeof node === 'object' && node !== null && Object.entries(node).some(([k, v]) => (k === '$id' && typeof v === 'string') || hasIds(v));
}

/** The first error at each location: the others there restate it (an anyOf and its branches). */
function firstPerLocation(errors: readonly SchemaError[] | null | undefined): SchemaError[] {
  const first = new Map<string, SchemaError>();
  for (const e of errors ?? []) if (!first.has(e.instancePath)) first.set(e.instancePath, e);
  return [...first.values()];
}

/**
 * Compiles one tool schema for its dialect, or adds to `problems` one line per thing wrong with it, naming the
 * tool and the pointer: a dialect other than 2020-12 and draft-07, what the dialect's meta-schema rejects (the
 * first reason per location, as `wiregen generate --spec` reports a spec file's), a `format` ajv-formats does
 * not know (ajv, not strict, would only warn and let every value through), a schema ajv cannot compile.
 */
function compileSchema(
  instances: Readonly<Record<SchemaDialect, AjvInstance>>,
  make: AjvMaker,
  where: string,
  schema: JsonObject,
  problems: string[],
): Check | undefined {
  const dialect = dialectOf(schema);
  if (dialect === undefined) {
    problems.push(
      `${where}/$schema is ${JSON.stringify(schema['$schema'])}; tool schemas are JSON Schema 2020-12 (the default, ${JSON_SCHEMA_2020_12}) or draft-07 (${JSON_SCHEMA_DRAFT_07})`,
    );
    return undefined;
  }
  // A schema with `$id`s gets an instance of its own: another tool's schema may reuse one of them.
  const instance = hasIds(schema) ? make(dialect) : instances[dialect];
  // The dialect is the instance's: `$schema` (which ajv would look up by its exact spelling) is not needed.
  const { $schema, ...rest } = schema;
  const before = problems.length;
  if (!instance.validateSchema(rest))
    for (const e of firstPerLocation(instance.errors))
      problems.push(`${where}${e.instancePath}: not a valid ${DIALECT_NAME[dialect]}: ${schemaReason(e)}`);
  for (const { format, pointer } of formatsUsed(schema, dialect))
    if (!Object.hasOwn(instance.formats, format))
      problems.push(
        `${where}${pointer}: unknown format ${JSON.stringify(format)} (the formats are ajv-formats': ${Object.keys(instance.formats).join(', ')})`,
      );
  if (problems.length > before) return undefined;
  try {
    return instance.compile(rest);
  } catch (err) {
    problems.push(`${where} is not a valid ${DIALECT_NAME[dialect]}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

/**
 * The definition of a code-first spec; rejects with a {@link DefinitionError} listing every problem. The
 * schemas given as Standard Schemas (`standard`) are derived into the spec first (standard/derive.ts) and
 * validated by their library, not by ajv: a definition whose every schema is one does not load ajv.
 */
export async function compileDefinition(
  given: CatalogSpec,
  behaviours: Behaviours,
  standard: StandardItems = { tools: new Map(), prompts: new Map() },
): Promise<CatalogDefinition> {
  const problems: string[] = [];
  const spec = await deriveSpec(given, standard, problems);
  if (problems.length) throw new DefinitionError(problems);
  const latest = await requireRevision(LATEST_STATELESS);
  for (const [section, def, key, kind] of SECTIONS) {
    const validate = latest.validators[def]!;
    for (const item of (spec[section] ?? []) as readonly JsonObject[]) {
      const wire = Object.fromEntries(Object.entries(item).filter(([k]) => section !== 'tools' || !SPEC_ONLY.has(k)));
      if (!validate(wire))
        for (const e of firstPerLocation(validate.errors))
          problems.push(`${kind} ${String(item[key])}: ${e.instancePath || '(root)'}: not a valid MCP ${latest.version} ${def}: ${schemaReason(e)}`);
    }
  }
  if (problems.length) throw new DefinitionError(problems);
  const { tools: parsers, prompts: promptParsers } = standardChecks(standard);
  // The JSON Schemas written as such (not derived from a Standard Schema), which ajv compiles.
  const written = (spec.tools ?? []).map((tool) => {
    const std = standard.tools.get(tool.name);
    return {
      tool,
      input: std?.input ? undefined : tool.inputSchema,
      output: std?.output ? undefined : (tool['outputSchema'] as JsonObject | undefined),
    };
  });
  const make = written.some((w) => w.input || w.output) ? await loadAjv() : undefined;
  const shared = make && { '2020-12': make('2020-12'), 'draft-07': make('draft-07') };
  const validators: Record<string, ToolChecks> = {};
  for (const { tool, input, output } of written) {
    const compile = (schema: JsonObject | undefined, where: string) =>
      schema && shared && make ? compileSchema(shared, make, `tool ${tool.name}: ${where}`, schema, problems) : undefined;
    const checks = { ...parsers[tool.name], input: compile(input, '/inputSchema'), output: compile(output, '/outputSchema') };
    validators[tool.name] = Object.fromEntries(Object.entries(checks).filter(([, c]) => c !== undefined));
  }
  if (problems.length) throw new DefinitionError(problems);
  return { spec, behaviours, validators, ...(promptParsers && Object.keys(promptParsers).length ? { promptParsers } : {}) };
}
