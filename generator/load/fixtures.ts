/**
 * @module load/fixtures — reads the fixture specs (schemas/fixtures/*.yaml), validates each against
 * fixture.schema.json, and each tool, resource, template and prompt against the newest MCP schema.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { InputError, pointer, type Diagnostic } from '../errors.ts';
import { createAjv, validationDocument } from '../emit/validators.ts';
import type { PinPlan } from '../plan/index.ts';
import { readJson } from './json.ts';
import { display } from './pins.ts';
import type { JsonObject } from './schema.ts';
import { assertValid, compileInputSchema, describeError } from './validate-input.ts';
import { readYaml } from './yaml.ts';

export interface FixtureSpecFile {
  readonly file: string;
  readonly name: string;
  readonly spec: JsonObject;
}

/** The list sections of a spec and the MCP definition each item must satisfy. */
export const SECTIONS = [
  ['tools', 'Tool'],
  ['resources', 'Resource'],
  ['resourceTemplates', 'ResourceTemplate'],
  ['prompts', 'Prompt'],
] as const;

/** Fields of a fixture item that are ours, not the protocol's: removed before validating and listing. */
export const FIXTURE_ONLY = ['output', 'listed'];

export function loadFixtures(ctx: Context, mcp: PinPlan): FixtureSpecFile[] {
  const dir = join(ctx.options.schemasDir, 'fixtures');
  if (!existsSync(dir)) return [];
  const schemaPath = join(dir, 'fixture.schema.json');
  const validateSpec = compileInputSchema(readJson(schemaPath, display(ctx, schemaPath)) as object);
  const ajv = createAjv(mcp, false);
  ajv.addSchema(validationDocument(mcp));
  const wire = (def: string) => ajv.getSchema(`${mcp.schemaId}#/${mcp.defsKey}/${def}`)!;
  const out: FixtureSpecFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
    const abs = join(dir, entry);
    const file = display(ctx, abs);
    const { data, locate } = readYaml(abs, file);
    assertValid(validateSpec, data, file, locate);
    const spec = data as JsonObject;
    const name = spec['fixture'] as string;
    if (`${name}.yaml` !== entry) diagnostics.push({ file, pointer: '/fixture', ...locate('/fixture'), message: `is "${name}" but the file is ${entry}; they must agree` });
    for (const [section, def] of SECTIONS) {
      const items = (spec[section] ?? []) as JsonObject[];
      const validate = wire(def);
      const seen = new Set<string>();
      items.forEach((item, i) => {
        const at = pointer(section, i);
        const wireItem = Object.fromEntries(Object.entries(item).filter(([k]) => !FIXTURE_ONLY.includes(k)));
        if (!validate(wireItem))
          for (const e of validate.errors ?? [])
            diagnostics.push({ file, pointer: at + e.instancePath, ...locate(at + e.instancePath), message: `not a valid MCP ${mcp.revision} ${def}: ${describeError(e)}` });
        const key = String(item['name'] ?? item['uri'] ?? item['uriTemplate']);
        const id = section === 'resources' ? String(item['uri']) : section === 'resourceTemplates' ? String(item['uriTemplate']) : key;
        if (seen.has(id)) diagnostics.push({ file, pointer: at, ...locate(at), message: `duplicate ${def} ${id}` });
        seen.add(id);
      });
    }
    out.push({ file, name, spec });
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  return out;
}

export interface AgentSpecFile {
  readonly file: string;
  readonly name: string;
  readonly spec: JsonObject;
}

/** Reads the A2A agent specs (schemas/fixtures/a2a/*.yaml), checking each card against the A2A AgentCard. */
export function loadAgentFixtures(ctx: Context, a2a: PinPlan): AgentSpecFile[] {
  const dir = join(ctx.options.schemasDir, 'fixtures', 'a2a');
  if (!existsSync(dir)) return [];
  const schemaPath = join(dir, 'agent.schema.json');
  const validateSpec = compileInputSchema(readJson(schemaPath, display(ctx, schemaPath)) as object);
  const ajv = createAjv(a2a, false);
  ajv.addSchema(validationDocument(a2a));
  const validateCard = ajv.getSchema(`${a2a.schemaId}#/${a2a.defsKey}/AgentCard`)!;
  const out: AgentSpecFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
    const abs = join(dir, entry);
    const file = display(ctx, abs);
    const { data, locate } = readYaml(abs, file);
    assertValid(validateSpec, data, file, locate);
    const spec = data as JsonObject;
    const name = spec['agent'] as string;
    if (`${name}.yaml` !== entry) diagnostics.push({ file, pointer: '/agent', ...locate('/agent'), message: `is "${name}" but the file is ${entry}; they must agree` });
    for (const key of ['card', 'extendedCard'] as const) {
      if (spec[key] === undefined || validateCard(spec[key])) continue;
      for (const e of validateCard.errors ?? [])
        diagnostics.push({ file, pointer: `/${key}${e.instancePath}`, ...locate(`/${key}${e.instancePath}`), message: `not a valid A2A ${a2a.revision} AgentCard: ${describeError(e)}` });
    }
    out.push({ file, name, spec });
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  return out;
}
