/**
 * @module emit/fixture — one fixture's module: generated/fixtures/<name>/index.ts (the spec as typed data,
 * argument and value types from each tool's schemas, defineFixture) and validators.js/.d.ts (ajv standalone
 * validators of every tool's input and output schema, compiled now, not when the server starts, by the same
 * pipeline as a pin's validators: emit/validators.ts); and an A2A agent's module (its card as typed data).
 * Tool schemas are checked to be JSON Schema 2020-12 when the specs are loaded (load/fixtures.ts).
 */
import { compile } from 'json-schema-to-typescript';
import { GENERATOR_NAME } from '../context.ts';
import { formatFiles, header, type FileSet } from '../format/index.ts';
import type { FixtureSpecFile } from '../load/fixtures.ts';
import { isObject, mapSchema, type Json, type JsonObject } from '../load/schema.ts';
import type { PinPlan } from '../plan/index.ts';
import { render } from './templates.ts';
import { TS_OPTIONS } from './types.ts';
import { createAjv, standaloneEsm } from './validators.ts';

/**
 * The ajv options of a fixture's validators, as overrides of the all-errors ones (emit/validators.ts): tool
 * schemas are the fixture author's, so not strict, and references are inlined (ajv's default).
 */
const FIXTURE_AJV = { strict: false, inlineRefs: true } as const;

/** `read_doc` → `ReadDoc`. */
function pascal(name: string): string {
  return name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
}

/** Titles name types in json-schema-to-typescript; a tool's titles ("A", "Result") would collide across tools. */
function withoutTitles(node: Json): Json {
  return mapSchema(node, (schema) => {
    if (typeof schema['title'] === 'string') delete schema['title'];
    return schema;
  });
}

async function typeOf(schema: JsonObject, name: string): Promise<string> {
  const ts = await compile(withoutTitles(schema) as never, name, TS_OPTIONS);
  return ts.replace(/^export (interface|type) (?!\w+ )/m, 'export $1 ');
}

function validators(fixture: FixtureSpecFile, names: Map<string, { input: string; output?: string }>): { js: string; dts: string } {
  const ajv = createAjv({ draft: '2020-12' }, true, FIXTURE_AJV);
  const refs: Record<string, string> = {};
  const tools = (fixture.spec['tools'] ?? []) as JsonObject[];
  for (const tool of tools) {
    const n = names.get(tool['name'] as string)!;
    for (const [kind, exportName] of [
      ['input', n.input],
      ['output', n.output],
    ] as const) {
      const schema = tool[kind === 'input' ? 'inputSchema' : 'outputSchema'];
      if (!exportName || !isObject(schema)) continue;
      const id = `urn:wiregen:fixture:${fixture.name}:${exportName}`;
      const { $schema, ...rest } = schema;
      ajv.addSchema({ ...rest, $id: id });
      refs[exportName] = id;
    }
  }
  const js = standaloneEsm(ajv, refs, `fixture ${fixture.name}`);
  const dts = [
    'import type { Check } from "@wiregen/runtime/core";',
    '',
    ...Object.keys(refs)
      .sort()
      .map((name) => `export declare const ${name}: Check;`),
    '',
  ].join('\n');
  return { js, dts };
}

/** The files of one fixture's folder (relative to generated/fixtures/<name>/), formatted. */
export async function emitFixture(fixture: FixtureSpecFile): Promise<FileSet> {
  const spec = fixture.spec;
  const tools = (spec['tools'] ?? []) as JsonObject[];
  const names = new Map<string, { input: string; output?: string }>();
  const used = new Set<string>();
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
    types.push(await typeOf(tool['inputSchema'] as JsonObject, argsType));
    const output = (tool['output'] as string | undefined) ?? (tool['outputSchema'] ? 'wrapped' : 'text');
    let valueType = 'string';
    let outputType: string | undefined;
    if (isObject(tool['outputSchema'])) {
      outputType = unique(`${base}Output`);
      types.push(await typeOf(tool['outputSchema'], outputType));
    }
    if (output === 'wrapped') valueType = outputType ? `${outputType}["result"]` : 'unknown';
    else if (output === 'structured') valueType = outputType ?? 'Record<string, unknown>';
    else if (output === 'result') valueType = '{ content: unknown[]; isError?: boolean; structuredContent?: unknown; [k: string]: unknown }';
    else valueType = 'string | number | boolean';
    const id = name.replace(/[^A-Za-z0-9_$]/g, '_');
    const n = { input: unique(`${id}_input`), ...(outputType ? { output: unique(`${id}_output`) } : {}) };
    names.set(name, n);
    toolRows.push({ name, argsType, valueType, inputValidator: n.input, outputValidator: n.output });
  }
  const { js, dts } = validators(fixture, names);
  const index = render('fixture.ts', {
    name: fixture.name,
    specJson: JSON.stringify(spec, null, 2),
    types: types.join('\n'),
    tools: toolRows,
    anyWrapped: toolRows.some((t) => t.valueType.endsWith('["result"]')),
    prompts: ((spec['prompts'] ?? []) as JsonObject[]).map((p) => ({ name: p['name'], arguments: p['arguments'] ?? [] })),
    resources: spec['resources'] ?? [],
    resourceTemplates: spec['resourceTemplates'] ?? [],
  });
  const raw: [string, string][] = [
    ['index.ts', index],
    ['validators.js', js],
    ['validators.d.ts', dts],
  ];
  return formatFiles(raw, header(GENERATOR_NAME, [fixture.file]));
}

/** One A2A agent's module: generated/fixtures/<name>/index.ts, importing the types of the `a2a` package. */
export async function emitAgentFixture(agent: FixtureSpecFile, a2a: PinPlan): Promise<FileSet> {
  const spec = agent.spec;
  const index = render('agent.ts', {
    name: agent.name,
    a2aPackage: a2a.packageName,
    behaviourConst: spec['behaviour'] === 'kit' ? 'KIT_BEHAVIOUR' : 'SDK_BEHAVIOUR',
    cardJson: JSON.stringify(spec['card'], null, 2),
    extendedCardJson: spec['extendedCard'] ? JSON.stringify(spec['extendedCard'], null, 2) : undefined,
  });
  return formatFiles([['index.ts', index]], header(GENERATOR_NAME, [agent.file]));
}
