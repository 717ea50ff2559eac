/**
 * @module load/fixtures — reads the fixture specs (schemas/fixtures/*.yaml), validates each against
 * fixture.schema.json, and each tool, resource, template and prompt against the newest MCP schema; and
 * the A2A agent specs (schemas/fixtures/a2a/*.yaml), each card against the A2A AgentCard.
 */
import type { ValidateFunction } from 'ajv';
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

/**
 * Reads every `*.yaml` spec in `dir`, validating it against `dir/<schemaFile>`, checking that its
 * `nameKey` matches the file name, then running `check` on it. All problems are reported together.
 */
function loadSpecs(
  ctx: Context,
  dir: string,
  schemaFile: string,
  nameKey: string,
  check: (spec: JsonObject, report: (at: string, message: string) => void) => void,
): FixtureSpecFile[] {
  if (!existsSync(dir)) return [];
  const schemaPath = join(dir, schemaFile);
  const validateSpec = compileInputSchema(readJson(schemaPath, display(ctx, schemaPath)) as object);
  const out: FixtureSpecFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
    const abs = join(dir, entry);
    const file = display(ctx, abs);
    const { data, locate } = readYaml(abs, file);
    assertValid(validateSpec, data, file, locate);
    const spec = data as JsonObject;
    const report = (at: string, message: string) => diagnostics.push({ file, pointer: at, ...locate(at), message });
    const name = spec[nameKey] as string;
    if (`${name}.yaml` !== entry) report(`/${nameKey}`, `is "${name}" but the file is ${entry}; they must agree`);
    check(spec, report);
    out.push({ file, name, spec });
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  return out;
}

/** A validator for `def` of the pinned schema `plan`. */
function wireValidator(plan: PinPlan): (def: string) => ValidateFunction {
  const ajv = createAjv(plan, false);
  ajv.addSchema(validationDocument(plan));
  return (def) => ajv.getSchema(`${plan.schemaId}#/${plan.defsKey}/${def}`)!;
}

/** Reads the MCP fixture specs (schemas/fixtures/*.yaml), checking each listed item against the MCP schema. */
export function loadFixtures(ctx: Context, mcp: PinPlan): FixtureSpecFile[] {
  const wire = wireValidator(mcp);
  return loadSpecs(ctx, join(ctx.options.schemasDir, 'fixtures'), 'fixture.schema.json', 'fixture', (spec, report) => {
    for (const [section, def] of SECTIONS) {
      const items = (spec[section] ?? []) as JsonObject[];
      const validate = wire(def);
      const seen = new Set<string>();
      items.forEach((item, i) => {
        const at = pointer(section, i);
        const wireItem = Object.fromEntries(Object.entries(item).filter(([k]) => !FIXTURE_ONLY.includes(k)));
        if (!validate(wireItem))
          for (const e of validate.errors ?? []) report(at + e.instancePath, `not a valid MCP ${mcp.revision} ${def}: ${describeError(e)}`);
        const id = String(section === 'resources' ? item['uri'] : section === 'resourceTemplates' ? item['uriTemplate'] : item['name']);
        if (seen.has(id)) report(at, `duplicate ${def} ${id}`);
        seen.add(id);
      });
    }
  });
}

export type AgentSpecFile = FixtureSpecFile;

/** Reads the A2A agent specs (schemas/fixtures/a2a/*.yaml), checking each card against the A2A AgentCard. */
export function loadAgentFixtures(ctx: Context, a2a: PinPlan): AgentSpecFile[] {
  const validateCard = wireValidator(a2a)('AgentCard');
  return loadSpecs(ctx, join(ctx.options.schemasDir, 'fixtures', 'a2a'), 'agent.schema.json', 'agent', (spec, report) => {
    for (const key of ['card', 'extendedCard'] as const) {
      if (spec[key] === undefined || validateCard(spec[key])) continue;
      for (const e of validateCard.errors ?? []) report(`/${key}${e.instancePath}`, `not a valid A2A ${a2a.revision} AgentCard: ${describeError(e)}`);
    }
  });
}
