/**
 * @module emit/fixture — one fixture's module: generated/fixtures/<name>/index.ts (the spec as typed data,
 * argument and value types from each tool's schemas, defineFixture) and validators.js/.d.ts (ajv standalone
 * validators of every tool's input and output schema, compiled now, not when the server starts).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compile } from 'json-schema-to-typescript';
import type { AgentSpecFile, FixtureSpecFile } from '../load/fixtures.ts';
import { isObject, type Json, type JsonObject } from '../load/schema.ts';
import { render } from './templates.ts';

const FORMATS_REQUIRE = 'require("ajv-formats/dist/formats").fullFormats';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** `read_doc` → `ReadDoc`. */
function pascal(name: string): string {
  return name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
}

/** Titles name types in json-schema-to-typescript; a tool's titles ("A", "Result") would collide across tools. */
function withoutTitles(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutTitles);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'title' && typeof v === 'string') continue;
    out[k] = k === 'properties' && isObject(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, withoutTitles(s)])) : withoutTitles(v);
  }
  return out;
}

async function typeOf(schema: JsonObject, name: string): Promise<string> {
  const ts = await compile(withoutTitles(schema) as never, name, {
    bannerComment: '',
    format: false,
    additionalProperties: false,
    declareExternallyReferenced: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  return ts.replace(/^export (interface|type) (?!\w+ )/m, 'export $1 ');
}

function validators(fixture: FixtureSpecFile, names: Map<string, { input: string; output?: string }>): { js: string; dts: string } {
  const ajv = new Ajv2020.default({ allErrors: true, strict: false, allowUnionTypes: true, code: { source: true, esm: true, lines: true } });
  addFormats.default(ajv);
  const refs: Record<string, string> = {};
  const tools = (fixture.spec['tools'] ?? []) as JsonObject[];
  for (const tool of tools) {
    const n = names.get(tool['name'] as string)!;
    for (const [kind, exportName] of [['input', n.input], ['output', n.output]] as const) {
      const schema = tool[kind === 'input' ? 'inputSchema' : 'outputSchema'];
      if (!exportName || !isObject(schema)) continue;
      const declared = schema['$schema'];
      if (declared !== undefined && declared !== DRAFT_2020)
        throw new Error(`${fixture.file}: tool ${String(tool['name'])} declares $schema ${String(declared)}; fixtures use JSON Schema 2020-12`);
      const id = `urn:wiregen:fixture:${fixture.name}:${exportName}`;
      const { $schema, ...rest } = schema;
      ajv.addSchema({ ...rest, $id: id });
      refs[exportName] = id;
    }
  }
  let js = standaloneCode.default(ajv, refs);
  if (js.includes(FORMATS_REQUIRE))
    js = js.split(FORMATS_REQUIRE).join('ajvFormats.fullFormats').replace('"use strict";', `"use strict";\nimport ajvFormats from "ajv-formats/dist/formats.js";`);
  const dts = [
    '/** A precompiled validator; its errors are left on `.errors` when it returns false. */',
    'export interface Validator {',
    '  (data: unknown): boolean;',
    '  errors?: { instancePath: string; message?: string }[] | null;',
    '}',
    ...Object.keys(refs).sort().map((name) => `export declare const ${name}: Validator;`),
    '',
  ].join('\n');
  return { js, dts };
}

/** The files of one fixture's folder (relative to generated/fixtures/<name>/). */
export async function emitFixture(fixture: FixtureSpecFile): Promise<Map<string, string>> {
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
    runtime: '../../../runtime',
    specJson: JSON.stringify(spec, null, 2),
    types: types.join('\n'),
    tools: toolRows,
    anyWrapped: toolRows.some((t) => t.valueType.endsWith('["result"]')),
    prompts: ((spec['prompts'] ?? []) as JsonObject[]).map((p) => ({ name: p['name'], arguments: p['arguments'] ?? [] })),
    resources: spec['resources'] ?? [],
    resourceTemplates: spec['resourceTemplates'] ?? [],
  });
  return new Map([
    ['index.ts', index],
    ['validators.js', js],
    ['validators.d.ts', dts],
  ]);
}

/** One A2A agent's module: generated/fixtures/<name>/index.ts. */
export function emitAgentFixture(agent: AgentSpecFile): Map<string, string> {
  const spec = agent.spec;
  const index = render('agent.ts', {
    name: agent.name,
    runtime: '../../../runtime',
    behaviourConst: spec['behaviour'] === 'kit' ? 'KIT_BEHAVIOUR' : 'SDK_BEHAVIOUR',
    cardJson: JSON.stringify(spec['card'], null, 2),
    extendedCardJson: spec['extendedCard'] ? JSON.stringify(spec['extendedCard'], null, 2) : undefined,
  });
  return new Map([['index.ts', index]]);
}
