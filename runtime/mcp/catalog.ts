/**
 * @module mcp/catalog — a server made of a catalogue: tools, resources, resource templates and prompts
 * described as data (a fixture spec) plus one small typed function each. It answers the list, call, read,
 * get and complete methods the way the official SDK's high-level server does (seed 000): a tool's value
 * becomes text and structured content, a throwing tool an `isError` result, an unknown tool a result with
 * "Unknown tool: <name>", an unknown resource -32602 with the uri.
 */
import { canonicalJson } from '../jsonrpc/canonical.ts';
import { JsonRpcError, type JsonObject } from '../jsonrpc/message.ts';
import { paramsError } from './errors.ts';
import { InputRequired } from './mrtr.ts';
import { paginate } from './pagination.ts';
import type { CacheHints, Handler, McpServerOptions, RequestContext } from './types.ts';
import type { Check } from '../core/index.ts';

/** How a tool's return value becomes its result. */
export type ToolOutput =
  /** `structuredContent: {result: value}` and the value as text (the SDK's MCPServer, seed 000). */
  | 'wrapped'
  /** The value (an object) as `structuredContent`, and its canonical JSON (sorted keys, compact) as text. */
  | 'structured'
  /** The value (a string) as one text block. */
  | 'text'
  /** The value is the whole CallToolResult. */
  | 'result';

export interface ToolSpec extends JsonObject {
  name: string;
  inputSchema: JsonObject;
  /** Default `text`, or `wrapped` when the tool has an outputSchema. */
  output?: ToolOutput;
  /** Unlisted tools are callable but absent from tools/list. Default true. */
  listed?: boolean;
}
export interface ResourceSpec extends JsonObject {
  uri: string;
  name: string;
}
export interface ResourceTemplateSpec extends JsonObject {
  uriTemplate: string;
  name: string;
}
export interface PromptSpec extends JsonObject {
  name: string;
}

export interface FixtureSpec {
  readonly fixture: string;
  readonly serverInfo: { readonly name: string; readonly version: string } & JsonObject;
  readonly instructions?: string;
  readonly capabilities: { readonly handshake: JsonObject; readonly stateless: JsonObject };
  readonly cache?: CacheHints;
  /** A call to a tool the catalogue lacks: -32602 "Unknown tool: <name>" (default), or an isError result (the Python SDK). */
  readonly unknownTool?: 'error' | 'result';
  readonly pageSize?: number;
  readonly tools?: readonly ToolSpec[];
  readonly resources?: readonly ResourceSpec[];
  readonly resourceTemplates?: readonly ResourceTemplateSpec[];
  readonly prompts?: readonly PromptSpec[];
}

/** What a resource function returns: its text, or its contents. */
export type ResourceBody = string | { text: string; mimeType?: string } | { blob: string; mimeType?: string };
/** What a prompt function returns: the user message's text, or the messages. */
export type PromptBody = string | { description?: string; messages: JsonObject[] };
/** A completion request's reference and argument. */
export interface CompletionQuery {
  readonly ref: JsonObject;
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: JsonObject;
}

/** The behaviours a fixture module passes in (the generated module types them per tool and prompt). */
export interface Behaviours {
  readonly tools?: Readonly<Record<string, (args: never, ctx: RequestContext) => unknown>>;
  readonly resources?: Readonly<Record<string, (ctx: RequestContext) => ResourceBody | Promise<ResourceBody>>>;
  readonly resourceTemplates?: Readonly<Record<string, (vars: Record<string, string>, ctx: RequestContext) => ResourceBody | Promise<ResourceBody>>>;
  readonly prompts?: Readonly<Record<string, (args: never, ctx: RequestContext) => PromptBody | Promise<PromptBody>>>;
  readonly complete?: (query: CompletionQuery, ctx: RequestContext) => readonly string[] | Promise<readonly string[]>;
}

export interface FixtureDefinition {
  readonly spec: FixtureSpec;
  readonly behaviours: Behaviours;
  /** Precompiled validators of each tool's input and output schemas (generated). */
  readonly validators: Readonly<Record<string, { readonly input?: Check; readonly output?: Check }>>;
}

/** Python's str() for the values a wrapped tool returns (numbers, strings, booleans); JSON otherwise. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

function describe(v: Check): string {
  const e = v.errors?.[0];
  return e ? `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}` : 'is invalid';
}

/** Strips the fixture-only fields of a tool spec: what tools/list shows. */
function listedTool(tool: ToolSpec): JsonObject {
  const { output, listed, ...wire } = tool;
  return wire;
}

/** Matches `uri` against a level-1 RFC 6570 template (`resource://item/{itemId}`); returns the variables. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const m = new RegExp(`^${pattern}$`).exec(uri);
  if (!m) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
}

/** A catalogue's tools by name (built once per definition; tools/call looks one up on every request). */
const toolIndex = new WeakMap<FixtureDefinition, ReadonlyMap<string, ToolSpec>>();
function toolNamed(def: FixtureDefinition, name: string): ToolSpec | undefined {
  let index = toolIndex.get(def);
  if (!index) toolIndex.set(def, (index = new Map((def.spec.tools ?? []).map((t) => [t.name, t]))));
  return index.get(name);
}

async function callTool(def: FixtureDefinition, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const name = params['name'] as string;
  const tool = toolNamed(def, name);
  const behaviour = def.behaviours.tools?.[name] as ((args: unknown, ctx: RequestContext) => unknown) | undefined;
  if (!tool || !behaviour) {
    if (def.spec.unknownTool === 'result') return toolError(`Unknown tool: ${name}`);
    throw paramsError(`Unknown tool: ${name}`);
  }
  const args = (params['arguments'] ?? {}) as JsonObject;
  const checks = def.validators[name];
  if (checks?.input && !checks.input(args)) return toolError(`Error executing tool ${name}: invalid arguments: ${describe(checks.input)}`);
  let value: unknown;
  try {
    value = await behaviour(args, ctx);
  } catch (err) {
    if (err instanceof InputRequired || err instanceof JsonRpcError || ctx.signal.aborted) throw err;
    return toolError(`Error executing tool ${name}`);
  }
  const mode: ToolOutput = tool.output ?? (tool['outputSchema'] ? 'wrapped' : 'text');
  if (mode === 'result') return value as JsonObject;
  if (mode === 'text') return { content: [{ type: 'text', text: textOf(value) }], isError: false };
  const structured = mode === 'wrapped' ? { result: value } : (value as JsonObject);
  if (checks?.output && !checks.output(structured))
    return toolError(`Error executing tool ${name}: output does not match its outputSchema: ${describe(checks.output)}`);
  const text = mode === 'wrapped' ? textOf(value) : canonicalJson(value);
  return { content: [{ type: 'text', text }], isError: false, structuredContent: structured };
}

async function readResource(def: FixtureDefinition, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const uri = params['uri'] as string;
  const contents = (body: ResourceBody, mimeType: unknown): JsonObject[] => {
    const base: JsonObject = { uri };
    const type = typeof body === 'object' && body.mimeType !== undefined ? body.mimeType : mimeType;
    if (typeof type === 'string') base['mimeType'] = type;
    if (typeof body === 'string') return [{ ...base, text: body }];
    return [{ ...base, ...('text' in body ? { text: body.text } : { blob: body.blob }) }];
  };
  const resource = def.spec.resources?.find((r) => r.uri === uri);
  const read = resource ? def.behaviours.resources?.[uri] : undefined;
  if (resource && read) return { contents: contents(await read(ctx), resource['mimeType']) };
  for (const template of def.spec.resourceTemplates ?? []) {
    const vars = matchTemplate(template.uriTemplate, uri);
    const readTemplate = def.behaviours.resourceTemplates?.[template.uriTemplate];
    if (vars && readTemplate) return { contents: contents(await readTemplate(vars, ctx), template['mimeType']) };
  }
  throw paramsError(`Unknown resource: ${uri}`, { uri });
}

async function getPrompt(def: FixtureDefinition, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const name = params['name'] as string;
  const prompt = def.spec.prompts?.find((p) => p.name === name);
  const render = def.behaviours.prompts?.[name] as ((args: unknown, ctx: RequestContext) => PromptBody | Promise<PromptBody>) | undefined;
  if (!prompt || !render) throw paramsError(`Unknown prompt: ${name}`);
  const args = (params['arguments'] ?? {}) as Record<string, string>;
  const declared = (prompt['arguments'] ?? []) as { name: string; required?: boolean }[];
  const missing = declared.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length) throw paramsError('Missing required prompt arguments', { missing });
  const body = await render(args, ctx);
  const result: JsonObject = {};
  const description = typeof body === 'object' && body.description !== undefined ? body.description : prompt['description'];
  if (description !== undefined) result['description'] = description;
  result['messages'] = typeof body === 'string' ? [{ role: 'user', content: { type: 'text', text: body } }] : body.messages;
  return result;
}

const MAX_COMPLETIONS = 100;

/** completion/complete: the fixture's `complete` function decides, for any reference (it may throw -32602). */
async function complete(def: FixtureDefinition, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
  const values = def.behaviours.complete ? await def.behaviours.complete(params as unknown as CompletionQuery, ctx) : [];
  return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
}

/** The MCP method handlers of a catalogue. */
export function catalogHandlers(def: FixtureDefinition): Record<string, Handler> {
  const { spec } = def;
  const size = spec.pageSize;
  const list =
    <T>(key: string, method: string, items: readonly T[]): Handler =>
    (params) => {
      const { page, nextCursor } = paginate(items, method, params['cursor'], size);
      return nextCursor === undefined ? { [key]: page } : { [key]: page, nextCursor };
    };
  const handlers: Record<string, Handler> = {};
  if (spec.tools) {
    handlers['tools/list'] = list('tools', 'tools/list', spec.tools.filter((t) => t.listed !== false).map(listedTool));
    handlers['tools/call'] = (params, ctx) => callTool(def, params, ctx);
  }
  if (spec.resources || spec.resourceTemplates) {
    handlers['resources/list'] = list('resources', 'resources/list', spec.resources ?? []);
    handlers['resources/templates/list'] = list('resourceTemplates', 'resources/templates/list', spec.resourceTemplates ?? []);
    handlers['resources/read'] = (params, ctx) => readResource(def, params, ctx);
  }
  if (spec.prompts) {
    handlers['prompts/list'] = list('prompts', 'prompts/list', spec.prompts);
    handlers['prompts/get'] = (params, ctx) => getPrompt(def, params, ctx);
  }
  if (def.behaviours.complete) handlers['completion/complete'] = (params, ctx) => complete(def, params, ctx);
  return handlers;
}

/** Server options for a catalogue: its identity, capabilities and cache hints, and the handlers above. */
export function catalogServerOptions(def: FixtureDefinition, extra: Partial<McpServerOptions> = {}): McpServerOptions {
  const { spec } = def;
  return {
    serverInfo: spec.serverInfo,
    ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
    capabilities: spec.capabilities,
    ...(spec.cache ? { cache: spec.cache } : {}),
    handlers: catalogHandlers(def),
    toolInputSchema: (name) => toolNamed(def, name)?.inputSchema,
    ...extra,
  };
}
