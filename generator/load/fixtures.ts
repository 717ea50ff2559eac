/**
 * @module load/fixtures — reads the fixture specs (schemas/fixtures/*.yaml), validates each against
 * fixture.schema.json, and each tool, resource, template and prompt against the newest MCP schema (each
 * tool's schemas must be JSON Schema 2020-12, the draft its validators are compiled for); and the A2A agent
 * specs (schemas/fixtures/a2a/*.yaml), each card against the A2A AgentCard. Items and cards are checked
 * with the pin's compiled validators (emit/validators.ts compiledDocument), the ones its package is written
 * from.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { InputError, pointer, type Diagnostic } from '../errors.ts';
import { compiledDocument, createAjv, validationDocument } from '../emit/validators.ts';
function old(plan: PinPlan) {
  const ajv = createAjv(plan, false);
  ajv.addSchema(validationDocument(plan));
  return { validator: (d: string) => ajv.getSchema(`${plan.schemaId}#/${plan.defsKey}/${d}`)! };
}
void compiledDocument;
import type { PinPlan } from '../plan/index.ts';
import { readJson } from './json.ts';
import { display } from './pins.ts';
import { draftNamed, isObject, SCHEMA_URI, type JsonObject } from './schema.ts';
import { assertValid, compileInputSchema, describeError } from './validate-input.ts';
import { readYaml } from './yaml.ts';

/** A fixture or agent spec as read: its display path, its name and its content. */
export interface FixtureSpecFile {
  readonly file: string;
  readonly name: string;
  readonly spec: JsonObject;
}

/** The list sections of a spec, the MCP definition each item must satisfy, and the key that identifies an item. */
const SECTIONS = [
  ['tools', 'Tool', 'name'],
  ['resources', 'Resource', 'uri'],
  ['resourceTemplates', 'ResourceTemplate', 'uriTemplate'],
  ['prompts', 'Prompt', 'name'],
] as const;

/** A tool's schemas, which become validators compiled for JSON Schema 2020-12. */
const TOOL_SCHEMAS = ['inputSchema', 'outputSchema'] as const;

type Report = (at: string, message: string) => void;

/**
 * Reads every `*.yaml` spec in `dir`, validating it against `dir/<schemaFile>`, checking that its
 * `nameKey` matches the file name, then running the check `prepare` makes from the spec schema on it. All
 * problems are reported together.
 */
function loadSpecs(
  ctx: Context,
  dir: string,
  schemaFile: string,
  nameKey: string,
  prepare: (specSchema: JsonObject) => (spec: JsonObject, report: Report) => void,
): FixtureSpecFile[] {
  if (!existsSync(dir)) return [];
  const schemaPath = join(dir, schemaFile);
  const specSchema = readJson(schemaPath, display(ctx, schemaPath)) as JsonObject;
  const validateSpec = compileInputSchema(specSchema);
  const check = prepare(specSchema);
  const out: FixtureSpecFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const entry of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const abs = join(dir, entry);
    const file = display(ctx, abs);
    const { data, locate } = readYaml(abs, file);
    assertValid(validateSpec, data, file, locate);
    const spec = data as JsonObject;
    const report: Report = (at, message) => diagnostics.push({ file, pointer: at, ...locate(at), message });
    const name = spec[nameKey] as string;
    if (`${name}.yaml` !== entry) report(`/${nameKey}`, `is "${name}" but the file is ${entry}; they must agree`);
    check(spec, report);
    out.push({ file, name, spec });
  }
  if (diagnostics.length) throw new InputError(diagnostics);
  return out;
}

/**
 * The fields of a section's items that are the fixture's, not the protocol's (a tool's `output` and
 * `listed`): the properties the spec schema declares for the item that the MCP definition does not have.
 * They are removed before an item is checked against MCP.
 */
function fixtureOnly(specSchema: JsonObject, section: string, def: JsonObject | undefined): Set<string> {
  const sectionSchema = (specSchema['properties'] as JsonObject | undefined)?.[section];
  const items = isObject(sectionSchema) ? sectionSchema['items'] : undefined;
  const declared = isObject(items) && isObject(items['properties']) ? Object.keys(items['properties']) : [];
  const wire = isObject(def?.['properties']) ? def['properties'] : {};
  return new Set(declared.filter((k) => !(k in wire)));
}

/** Reads the MCP fixture specs (schemas/fixtures/*.yaml), checking each listed item against the MCP schema. */
export function loadFixtures(ctx: Context, mcp: PinPlan): FixtureSpecFile[] {
  const wire = old(mcp);
  return loadSpecs(ctx, join(ctx.options.schemasDir, 'fixtures'), 'fixture.schema.json', 'fixture', (specSchema) => {
    const sections = SECTIONS.map(([section, def, idKey]) => ({ section, def, idKey, ours: fixtureOnly(specSchema, section, mcp.defs[def]) }));
    return (spec, report) => {
      for (const { section, def, idKey, ours } of sections) {
        const items = (spec[section] ?? []) as JsonObject[];
        const validate = wire.validator(def);
        const seen = new Set<string>();
        items.forEach((item, i) => {
          const at = pointer(section, i);
          const wireItem = Object.fromEntries(Object.entries(item).filter(([k]) => !ours.has(k)));
          if (!validate(wireItem))
            for (const e of validate.errors ?? []) report(at + e.instancePath, `not a valid MCP ${mcp.revision} ${def}: ${describeError(e)}`);
          const id = String(item[idKey]);
          if (seen.has(id)) report(at, `duplicate ${def} ${id}`);
          seen.add(id);
          if (section !== 'tools') return;
          for (const key of TOOL_SCHEMAS) {
            const schema = item[key];
            const declared = isObject(schema) ? schema['$schema'] : undefined;
            if (declared !== undefined && draftNamed(declared) !== '2020-12')
              report(
                pointer(section, i, key, '$schema'),
                `tool ${id} declares $schema ${JSON.stringify(declared)}; fixture tools use JSON Schema 2020-12 (${SCHEMA_URI['2020-12']})`,
              );
          }
        });
      }
    };
  });
}

/** Reads the A2A agent specs (schemas/fixtures/a2a/*.yaml), checking each card against the A2A AgentCard. */
export function loadAgentFixtures(ctx: Context, a2a: PinPlan): FixtureSpecFile[] {
  const validateCard = old(a2a).validator('AgentCard');
  return loadSpecs(ctx, join(ctx.options.schemasDir, 'fixtures', 'a2a'), 'agent.schema.json', 'agent', () => (spec, report) => {
    for (const key of ['card', 'extendedCard'] as const) {
      if (spec[key] === undefined || validateCard(spec[key])) continue;
      for (const e of validateCard.errors ?? []) report(`/${key}${e.instancePath}`, `not a valid A2A ${a2a.revision} AgentCard: ${describeError(e)}`);
    }
  });
}
