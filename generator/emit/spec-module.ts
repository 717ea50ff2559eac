/**
 * @module emit/spec-module — the module of one spec (spec/load.ts), written into the `--out` folder (or
 * generated/samples/<name>/ for the repository's own specs). For an MCP server: index.ts (the spec as typed
 * data, argument and value types from each tool's schemas, the Behaviours type, defineServer and
 * createServer) and validators.ts (ajv standalone validators of every tool's input and output schema,
 * compiled now, not when the server starts, by the same pipeline as a pin's validators: emit/validators/;
 * the draft-07 schemas' in validators.draft-07.ts). A tool schema's dialect, its checks and the copies of it
 * the validators and the types are made from are spec/tool-schema.ts, spec/schema-uris.ts, spec/tool-types.ts.
 * For an A2A agent: index.ts (its card as typed data, defineAgent and createAgent). The code imports only
 * `@wiregen/runtime/...` and, for types, the pin's package, with `.js` relative specifiers.
 */
import { compile } from 'json-schema-to-typescript';
import { GENERATOR_NAME } from '../context.ts';
import { InputError, pointer, type Diagnostic } from '../errors.ts';
import { formatFiles, header, type FileSet } from '../format/index.ts';
import { isObject, type Draft, type JsonObject } from '../load/schema.ts';
import { SECTIONS, type LoadedSpec } from '../spec/load.ts';
import { ajvClassOf, TOOL_AJV, toolDialect, withoutAnnotations } from '../spec/tool-schema.ts';
import { withUniqueIds } from '../spec/schema-uris.ts';
import { typeSchemas } from '../spec/tool-types.ts';
import type { Workers } from '../workers/index.ts';
import { render } from './templates.ts';
import { TS_OPTIONS } from './types.ts';
import { acceptPathClass, createAjv, standaloneEsm } from './validators/index.ts';

/** `read_doc` → `ReadDoc`. */
function pascal(name: string): string {
  return name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
}

/**
 * The json-schema-to-typescript options of a tool's types: the generator's (emit/types.ts), except that an
 * object without `additionalProperties` admits other properties, as its validator does (and as the
 * code-first path's types, runtime/mcp/catalog/from-schema.ts, have it).
 */
const TOOL_TS_OPTIONS = { ...TS_OPTIONS, additionalProperties: true };

/**
 * The TypeScript type `name` of the values a tool schema admits, with a type of its own for each schema a
 * `$ref` in it reaches (spec/tool-types.ts; `allocate` names them, unique in the module).
 */
async function typeOf(schema: JsonObject, name: string, allocate: (base: string) => string): Promise<string> {
  const dialect = toolDialect(schema);
  if (dialect === undefined) throw new Error(`type ${name}: a dialect load.ts refuses`);
  const declared: string[] = [];
  for (const part of typeSchemas(schema, dialect, name, allocate)) {
    // A schema json-schema-to-typescript cannot read (spec/tool-types.ts leaves out what it is known to
    // refuse) is `unknown`: wider than the schema, never a failed generate for a schema its validator takes.
    const ts = await compile(part.schema as never, part.name, TOOL_TS_OPTIONS).catch(() => '');
    // json-schema-to-typescript declares nothing for some schemas that admit anything (`allOf: [true]`).
    const named = new RegExp(`^export (interface|type) ${part.name}\\b`, 'm').test(ts);
    declared.push(named ? ts.replace(/^export (interface|type) (?!\w+ )/m, 'export $1 ') : `export type ${part.name} = unknown;\n`);
  }
  return declared.join('\n');
}

/** The export names of one tool's validators. */
interface ToolValidatorNames {
  readonly input: string;
  readonly output?: string;
}

/** `record` with `f` applied to each value. */
const mapValues = <T, U>(record: Readonly<Record<string, T>>, f: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

/** The module of a dialect's validators, as the import specifier validators.ts re-exports them from. */
const DIALECT_MODULE: Readonly<Record<Draft, string>> = { '2020-12': 'validators', 'draft-07': 'validators.draft-07' };

/**
 * validators.ts: ajv's standalone JavaScript for every tool schema, as a TypeScript file that is not
 * type-checked (`@ts-nocheck`) and types each export as a Check. A `.ts` file, not `.js` beside a `.d.ts`,
 * so a consumer's `tsc` emits it with the rest (tsc does not copy `.js` files it only reads types for).
 * One ajv instance compiles one dialect (spec/tool-schema.ts), so the draft-07 schemas' validators are a
 * module of their own, validators.draft-07.ts, whose exports validators.ts exports again.
 */
function validators(loaded: LoadedSpec, names: ReadonlyMap<string, ToolValidatorNames>): [string, string][] {
  const byDialect = new Map<Draft, Record<string, JsonObject>>();
  for (const tool of (loaded.spec['tools'] ?? []) as JsonObject[]) {
    const n = names.get(tool['name'] as string)!;
    for (const [field, exportName] of [
      ['inputSchema', n.input],
      ['outputSchema', n.output],
    ] as const) {
      const schema = tool[field];
      if (!exportName || !isObject(schema)) continue;
      const dialect = toolDialect(schema);
      if (dialect === undefined) throw new Error(`spec ${loaded.name}: tool ${String(tool['name'])} ${field}: a dialect load.ts refuses`);
      if (!byDialect.has(dialect)) byDialect.set(dialect, {});
      byDialect.get(dialect)![exportName] = schema;
    }
  }
  const modules = new Map<Draft, string>();
  for (const [dialect, schemas] of byDialect) {
    // Without the annotations (they do not validate; descriptions would fill the module), and with Ajv2020's
    // unevaluated bookkeeping only when a schema needs it (the accept path's choice, emit/validators/accept-path.ts).
    const plain = mapValues(schemas, (schema) => withoutAnnotations(schema) as JsonObject);
    const Class = dialect === '2020-12' ? acceptPathClass({ allOf: Object.values(plain) }, dialect) : ajvClassOf(dialect);
    const ajv = createAjv({ draft: dialect }, true, TOOL_AJV, Class);
    const refs: Record<string, string> = {};
    for (const [exportName, schema] of Object.entries(plain)) {
      const { $schema, ...rest } = schema;
      // Named by the spec and export (its own `$id`s renamed with it, so two schemas may reuse one).
      const id = `urn:wiregen:spec:${loaded.name}:${exportName}`;
      ajv.addSchema(withUniqueIds(rest, dialect, id));
      refs[exportName] = id;
    }
    const label = `spec ${loaded.name}${dialect === '2020-12' ? '' : ` (${dialect})`}`;
    const js = standaloneEsm(ajv, refs, label);
    const typed = js
      .replace(/^export const ([A-Za-z_$][\w$]*) = /gm, 'export const $1: Check = ')
      .replace(/^"use strict";\n/, '"use strict";\nimport type { Check } from "@wiregen/runtime/core";\n');
    if (!typed.includes('import type { Check }')) throw new Error(`standalone code for ${label} does not start with "use strict"`);
    modules.set(dialect, ["// @ts-nocheck: ajv's standalone JavaScript is not type-checked; each export is typed as a Check.", typed].join('\n'));
  }
  const draft07 = byDialect.get('draft-07');
  const reexport = draft07 ? `export { ${Object.keys(draft07).sort().join(', ')} } from "./${DIALECT_MODULE['draft-07']}.js";\n` : '';
  const files: [string, string][] = [[`${DIALECT_MODULE['2020-12']}.ts`, `${modules.get('2020-12') ?? ''}${reexport}`]];
  if (draft07) files.push([`${DIALECT_MODULE['draft-07']}.ts`, modules.get('draft-07')!]);
  return files;
}

/** `file:line:column /pointer` of a place in the spec, as createServer's errors name it. */
function where(loaded: LoadedSpec, at: string): string {
  const pos = loaded.locate(at);
  return `${loaded.file}${pos ? `:${pos.line}:${pos.column}` : ''} ${at === '' ? '(root)' : at}`;
}

/**
 * Where each item the behaviours must cover is declared, by section: what the generated check of the
 * behaviours reports (every tool, resource, resource template and prompt needs a function).
 */
function declared(loaded: LoadedSpec): JsonObject {
  const out: JsonObject = {};
  for (const { section, key, label } of SECTIONS) {
    const items = (loaded.spec[section] ?? []) as JsonObject[];
    const at = where(loaded, loaded.spec[section] === undefined ? '' : pointer(section));
    const placed: JsonObject = {};
    items.forEach((item, i) => (placed[String(item[key])] = where(loaded, pointer(section, i))));
    out[section] = { at, label, items: placed };
  }
  return out;
}

/**
 * Each resource template's uriTemplate and the type of its variables: what matchTemplate yields for it
 * (runtime/mcp/catalog/uri-template.ts, whose parser decides; loaded only for a spec with templates). One line per
 * template that is not an RFC 6570 URI template, or names a variable both exploded and not.
 */
async function templateRows(loaded: LoadedSpec): Promise<{ uriTemplate: string; varsType: string }[]> {
  const templates = (loaded.spec['resourceTemplates'] ?? []) as JsonObject[];
  if (templates.length === 0) return [];
  const { uriTemplateVariables, UriTemplateError } = await import('@wiregen/runtime/mcp');
  const problems: Diagnostic[] = [];
  const rows = templates.map((template, i) => {
    const uriTemplate = template['uriTemplate'] as string;
    try {
      const fields = uriTemplateVariables(uriTemplate).map(
        (v) => `${JSON.stringify(v.name)}${v.required ? '' : '?'}: ${v.list ? 'string[]' : 'string'}`,
      );
      return { uriTemplate, varsType: fields.length ? `{ ${fields.join('; ')} }` : 'Record<string, never>' };
    } catch (err) {
      if (!(err instanceof UriTemplateError)) throw err;
      const at = pointer('resourceTemplates', i, 'uriTemplate');
      problems.push({ file: loaded.file, pointer: at, ...loaded.locate(at), message: `not an RFC 6570 URI template: ${err.message}` });
      return { uriTemplate, varsType: 'never' };
    }
  });
  if (problems.length) throw new InputError(problems);
  return rows;
}

/** The header of a spec's files: where they come from and how to write them again. */
function specHeader(loaded: LoadedSpec): string {
  return header(GENERATOR_NAME, [loaded.file], `change ${loaded.file} and run \`wiregen generate\` again`);
}

/** What an MCP server module declares and imports itself (templates/server.ts.hbs), beside the tools' types. */
const MODULE_NAMES = [
  'ToolArgs',
  'ToolValues',
  'PromptArgs',
  'TemplateVars',
  'Async',
  'Behaviours',
  'BehavioursError',
  'ServerOptions',
  'ServerSpec',
  'DECLARED',
  'spec',
  'v',
  'catalogServerOptions',
  'McpServer',
  'CompletionQuery',
  'CatalogDefinition',
  'CatalogSpec',
  'McpServerOptions',
  'PromptBody',
  'RequestContext',
  'ResourceBody',
];

/**
 * The files of an MCP server spec's module (index.ts, validators.ts when it has tools), formatted (on the
 * run's prettier threads when it has `workers`).
 */
export async function emitServer(loaded: LoadedSpec, workers?: Workers): Promise<FileSet> {
  const { main, ...spec } = loaded.spec;
  const tools = (spec['tools'] ?? []) as JsonObject[];
  const names = new Map<string, ToolValidatorNames>();
  // The names templates/server.ts.hbs declares or imports: a tool named `tool` or `prompt` must not make a
  // `ToolArgs` or `PromptArgs` that merges with the module's own interface.
  const used = new Set<string>(MODULE_NAMES);
  const unique = (base: string) => {
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}${i}`;
    used.add(name);
    return name;
  };
  const types: string[] = [];
  const toolRows = [];
  for (const tool of tools) {
    const name = tool['name'] as string;
    const base = pascal(name) || 'Tool';
    const argsType = unique(`${base}Args`);
    types.push(await typeOf(tool['inputSchema'] as JsonObject, argsType, unique));
    const output = (tool['output'] as string | undefined) ?? (tool['outputSchema'] ? 'wrapped' : 'text');
    let outputType: string | undefined;
    if (isObject(tool['outputSchema'])) {
      outputType = unique(`${base}Output`);
      types.push(await typeOf(tool['outputSchema'], outputType, unique));
    }
    let valueType: string;
    if (output === 'wrapped') valueType = outputType ? `${outputType}["result"]` : 'unknown';
    else if (output === 'structured') valueType = outputType ?? 'Record<string, unknown>';
    else if (output === 'result') valueType = '{ content: unknown[]; isError?: boolean; structuredContent?: unknown; [k: string]: unknown }';
    else valueType = 'string | number | boolean';
    const id = name.replace(/[^A-Za-z0-9_$]/g, '_');
    const n = { input: unique(`${id}_input`), ...(outputType ? { output: unique(`${id}_output`) } : {}) };
    names.set(name, n);
    toolRows.push({ name, argsType, valueType, inputValidator: n.input, outputValidator: n.output });
  }
  const resourceTemplates = await templateRows(loaded);
  const index = render('server.ts', {
    name: loaded.name,
    file: loaded.file,
    pin: loaded.pin.id,
    specJson: JSON.stringify(spec, null, 2),
    declaredJson: JSON.stringify(declared(loaded), null, 2),
    types: types.join('\n'),
    tools: toolRows,
    anyWrapped: toolRows.some((t) => t.valueType.endsWith('["result"]')),
    prompts: ((spec['prompts'] ?? []) as JsonObject[]).map((p) => ({ name: p['name'], arguments: p['arguments'] ?? [] })),
    resources: spec['resources'] ?? [],
    resourceTemplates,
    readsResources: Boolean((spec['resources'] as unknown[] | undefined)?.length || resourceTemplates.length),
  });
  const raw: [string, string][] = [['index.ts', index]];
  const validatorFiles = tools.length ? validators(loaded, names) : [];
  raw.push(...validatorFiles);
  // ajv's code as it writes it (one statement a line), as a pin's: prettier would take most of the time.
  return formatFiles(raw, specHeader(loaded), new Set(validatorFiles.map(([file]) => file)), workers);
}

/** The files of an A2A agent spec's module (index.ts, importing the types of the pin's package), formatted. */
export async function emitAgent(loaded: LoadedSpec, workers?: Workers): Promise<FileSet> {
  const spec = loaded.spec;
  const index = render('agent.ts', {
    name: loaded.name,
    file: loaded.file,
    pin: loaded.pin.id,
    a2aPackage: loaded.pin.packageName,
    behaviourConst: spec['behaviour'] === 'kit' ? 'KIT_BEHAVIOUR' : 'SDK_BEHAVIOUR',
    cardJson: JSON.stringify(spec['card'], null, 2),
    extendedCardJson: spec['extendedCard'] ? JSON.stringify(spec['extendedCard'], null, 2) : undefined,
    webhooksJson: spec['webhooks'] ? JSON.stringify(spec['webhooks'], null, 2) : undefined,
    executorAt: where(loaded, ''),
  });
  return formatFiles([['index.ts', index]], specHeader(loaded), new Set(), workers);
}

/** The files of a spec's module, whichever its kind. */
export function emitSpec(loaded: LoadedSpec, workers?: Workers): Promise<FileSet> {
  return loaded.kind === 'server' ? emitServer(loaded, workers) : emitAgent(loaded, workers);
}
