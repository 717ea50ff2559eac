/**
 * @module spec/load — reads a spec file (YAML, or JSON, which is YAML too) and checks it: against the spec
 * format's own JSON Schema (spec/server.schema.json for an MCP server, spec/agent.schema.json for an A2A
 * agent: a spec with a `card` is an agent), then each tool, resource, resource template and prompt against
 * the pin's MCP definition of it (or the card against A2A's AgentCard) with the pin package's precompiled
 * validators; each tool's inputSchema and outputSchema must be JSON Schema 2020-12, or draft-07 when its
 * `$schema` says so, with known formats, that ajv can compile (spec/tool-schema.ts); names and URIs are unique within their list. Every
 * problem is a diagnostic naming the file, line, column and JSON pointer; all of them are reported at once.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAgentCards } from '../check/agent-card.ts';
import type { Context } from '../context.ts';
import { fail, InputError, pointer, type Diagnostic } from '../errors.ts';
import { readJson } from '../load/json.ts';
import { display } from '../load/pins.ts';
import { isObject, type JsonObject } from '../load/schema.ts';
import { assertValid, compileInputSchema, describeError, type Locator } from '../load/validate-input.ts';
import { readYaml } from '../load/yaml.ts';
import { checkToolSchema, toolSchemaCheckers } from './tool-schema.ts';
import { defaultPin, findPin, type MCP_ITEM_DEFS, protocolOf, specPins, type SpecKind, type SpecPin } from './pins.ts';

/** A spec as read and checked. */
export interface LoadedSpec {
  /** Absolute path of the spec file. */
  readonly path: string;
  /** The path errors and generated headers name (relative to the project root when inside it). */
  readonly file: string;
  readonly kind: SpecKind;
  readonly name: string;
  readonly spec: JsonObject;
  readonly pin: SpecPin;
  /** Line and column of a JSON pointer into the file. */
  readonly locate: Locator;
}

/** The list sections of a server spec: the MCP definition each item must be, its key, and what the errors call it. */
export const SECTIONS = [
  { section: 'tools', def: 'Tool', key: 'name', label: 'tool' },
  { section: 'resources', def: 'Resource', key: 'uri', label: 'resource' },
  { section: 'resourceTemplates', def: 'ResourceTemplate', key: 'uriTemplate', label: 'resource template' },
  { section: 'prompts', def: 'Prompt', key: 'name', label: 'prompt' },
] as const satisfies readonly { section: string; def: (typeof MCP_ITEM_DEFS)[number]; key: string; label: string }[];

/** A tool's schemas, which become validators compiled for their dialect (spec/tool-schema.ts). */
export const TOOL_SCHEMAS = ['inputSchema', 'outputSchema'] as const;

const specSchemas = new Map<SpecKind, { schema: JsonObject; validate: ReturnType<typeof compileInputSchema> }>();

/** The spec format's JSON Schema for `kind` (shipped beside this module), compiled once. */
export function specSchema(kind: SpecKind) {
  let loaded = specSchemas.get(kind);
  if (!loaded) {
    const path = fileURLToPath(new URL(`./${kind}.schema.json`, import.meta.url));
    const schema = readJson(path) as JsonObject;
    loaded = { schema, validate: compileInputSchema(schema) };
    specSchemas.set(kind, loaded);
  }
  return loaded;
}

/** The pin `--pin` names, or the default one for the kind of spec; one line for an unknown or unfitting pin. */
function choosePin(kind: SpecKind, file: string, pinId: string | undefined): SpecPin {
  if (pinId === undefined) return defaultPin(kind);
  const pin = findPin(pinId);
  const fitting = specPins().filter((p) => p.protocol === protocolOf(kind));
  const list = fitting.map((p) => p.id).join(', ');
  if (!pin)
    fail({
      file: `--pin ${pinId}`,
      message: `unknown pin (pins: ${specPins()
        .map((p) => p.id)
        .join(', ')})`,
    });
  if (pin.protocol !== protocolOf(kind))
    fail({
      file,
      message: `is ${kind === 'server' ? 'an MCP server spec (it has no card)' : 'an A2A agent spec (it has a card)'}, but --pin ${pinId} is an ${pin.protocol.toUpperCase()} pin (pins for it: ${list})`,
    });
  return pin;
}

type Report = (at: string, message: string) => void;

/** The fields a section's items have that are the spec's, not MCP's: what the spec schema declares beside the key. */
function specOnlyFields(kindSchema: JsonObject, section: string, key: string): ReadonlySet<string> {
  const sectionSchema = (kindSchema['properties'] as JsonObject | undefined)?.[section];
  const items = isObject(sectionSchema) ? sectionSchema['items'] : undefined;
  const declared = isObject(items) && isObject(items['properties']) ? Object.keys(items['properties']) : [];
  return new Set(declared.filter((k) => k !== key));
}

async function checkServer(spec: JsonObject, pin: SpecPin, report: Report): Promise<void> {
  const validators = await pin.validators();
  const { schema } = specSchema('server');
  const checkers = toolSchemaCheckers();
  for (const { section, def, key, label } of SECTIONS) {
    const items = (spec[section] ?? []) as JsonObject[];
    const validate = validators[def]!;
    const ours = specOnlyFields(schema, section, key);
    const first = new Map<string, number>();
    items.forEach((item, i) => {
      const at = pointer(section, i);
      const wire = Object.fromEntries(Object.entries(item).filter(([k]) => !ours.has(k)));
      if (!validate(wire))
        for (const e of validate.errors ?? []) report(at + e.instancePath, `not a valid MCP ${pin.revision} ${def}: ${describeError(e)}`);
      const id = String(item[key]);
      const seen = first.get(id);
      if (seen !== undefined) report(`${at}/${key}`, `${label} ${JSON.stringify(id)} is declared twice (first at ${pointer(section, seen)})`);
      else first.set(id, i);
      if (section === 'tools') for (const field of TOOL_SCHEMAS) checkToolSchema(checkers, item[field], `${at}/${field}`, id, report);
    });
  }
}

async function checkAgent(spec: JsonObject, pin: SpecPin, report: Report): Promise<void> {
  const validateCard = (await pin.validators())['AgentCard']!;
  let cardsValid = true;
  for (const key of ['card', 'extendedCard'] as const) {
    if (spec[key] === undefined || validateCard(spec[key])) continue;
    cardsValid = false;
    for (const e of validateCard.errors ?? []) report(`/${key}${e.instancePath}`, `not a valid A2A ${pin.revision} AgentCard: ${describeError(e)}`);
  }
  // The card format's enumerations and cross-references the AgentCard definition leaves to prose (check/agent-card.ts).
  if (cardsValid) checkAgentCards(spec, pin.revision, report);
  const capabilities = isObject(spec['card']) && isObject(spec['card']['capabilities']) ? spec['card']['capabilities'] : {};
  if (spec['webhooks'] !== undefined && capabilities['pushNotifications'] !== true)
    report('/webhooks', 'the card does not declare capabilities.pushNotifications: true, so no webhook is ever called');
}

/**
 * Reads and checks the spec at `path` (relative paths against the project root) for the pin `pinId` (default:
 * the newest of its protocol). Throws an {@link InputError} listing every problem.
 */
export async function loadSpec(ctx: Context, path: string, pinId?: string): Promise<LoadedSpec> {
  const abs = resolve(ctx.options.root, path);
  const file = display(ctx, abs);
  const { data, locate } = readYaml(abs, file);
  const kind: SpecKind = isObject(data) && 'card' in data ? 'agent' : 'server';
  const pin = choosePin(kind, file, pinId);
  assertValid(specSchema(kind).validate, data, file, locate);
  const spec = data as JsonObject;
  const diagnostics: Diagnostic[] = [];
  const report: Report = (at, message) => diagnostics.push({ file, pointer: at, ...locate(at), message });
  await (kind === 'server' ? checkServer(spec, pin, report) : checkAgent(spec, pin, report));
  if (diagnostics.length) throw new InputError(diagnostics);
  return { path: abs, file, kind, name: spec['name'] as string, spec, pin, locate };
}
