/**
 * @module mcp/catalog/catalog — a server made of a catalog: tools, resources, resource templates and prompts
 * described as data (a sample spec, types.ts) plus one small typed function each. It answers the
 * list, call, read, get and complete methods the way the official SDK's high-level server does (test/fixtures/recordings/): a
 * tool's value becomes text and structured content, arguments its inputSchema rejects an `isError` result, an
 * unknown tool -32602 (or a result with "Unknown tool: <name>"), an unknown resource -32602 with the uri. What a
 * function throws is answered by the server (McpServer.answerThrown: an `isError` result for a tool, -32603
 * otherwise, its message shown or masked by `thrownErrors`).
 */
import type { CallResult, HandlerParams, Prompt, PromptMessage, Resource, ResourceTemplate, Tool } from '@wiregen/mcp-2026-07-28';
import { canonicalJson } from '../../jsonrpc/canonical.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { CatalogDefinition, PromptBody, ResourceBody, ToolOutput, ToolSpec } from './types.ts';
import { describeSchemaErrors, paramsError, type SchemaError } from '../server/errors.ts';
import { pagedList } from './pagination.ts';
import { isToolResult } from './results.ts';
import { MAX_COMPLETION_VALUES } from '../protocol.ts';
import type { McpHandlers, McpServerOptions, RequestContext } from '../server/types.ts';
import { catalogScopes, unionScopes, withoutScopes } from './scopes.ts';
import { matchTemplate } from './uri-template.ts';
import type { Check } from '../../core/index.ts';

export type * from './types.ts';

/** A result as a handler returns it (era-neutral: the runtime adds resultType and the cache hints). */
type Answer<M extends 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete'> = CallResult<M>;
/** A list method's page (pagination.ts pagedList: a reusable value, made once per page). */
type ListResult<M extends 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list'> = CallResult<M>;

/** Python's str() for the values a wrapped tool returns (numbers, strings, booleans); JSON otherwise. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

const toolError = (text: string): Answer<'tools/call'> => ({ content: [{ type: 'text', text }], isError: true });

/**
 * What a tool's validator found wrong: every error, each its JSON pointer and what was allowed (errors.ts
 * describeSchemaErrors). The generated and the code-first validators are ajv's, whose errors carry the keyword
 * and params beside the pointer and message that {@link Check} declares.
 */
const describe = (v: Check): string => describeSchemaErrors(v.errors as readonly SchemaError[] | null | undefined);

/**
 * The spec's items as the schema's types (the casts below). Each was checked against the newest pin's Tool,
 * Resource, ResourceTemplate or Prompt when the spec was made (generator/load/samples.ts for spec files,
 * code-first.ts for code), and every list result is checked again before it is sent.
 */

/** Strips the spec-only fields of a tool spec: what tools/list shows. */
function listedTool(tool: ToolSpec): Tool {
  const { output, listed, requiredScopes, ...wire } = tool;
  return wire as Tool;
}

/** A catalog's tools by name (built once per server: tools/call looks one up on every request). */
function toolsByName(def: CatalogDefinition): ReadonlyMap<string, ToolSpec> {
  return new Map((def.spec.tools ?? []).map((t) => [t.name, t]));
}

/** Arguments the tool's schema refused: an isError result, or -32602 with `invalidArguments: 'error'`. */
function invalidArguments(def: CatalogDefinition, name: string, problems: string): Answer<'tools/call'> {
  if (def.spec.invalidArguments === 'error') throw paramsError(`Invalid arguments for tool ${name}: ${problems}`);
  return toolError(`Error executing tool ${name}: invalid arguments: ${problems}`);
}

const outputMismatch = (name: string, problems: string) =>
  toolError(`Error executing tool ${name}: output does not match its outputSchema: ${problems}`);

async function callTool(
  def: CatalogDefinition,
  tools: ReadonlyMap<string, ToolSpec>,
  params: HandlerParams<'tools/call'>,
  ctx: RequestContext,
): Promise<Answer<'tools/call'>> {
  const { name } = params;
  const tool = tools.get(name);
  const behaviour = def.behaviours.tools?.[name] as ((args: unknown, ctx: RequestContext) => unknown) | undefined;
  if (!tool || !behaviour) {
    if (def.spec.unknownTool === 'result') return toolError(`Unknown tool: ${name}`);
    throw paramsError(`Unknown tool: ${name}`);
  }
  let args: unknown = params.arguments ?? {};
  const checks = def.validators[name];
  // Arguments that fail the tool's inputSchema: a tool execution error the model reads, naming each pointer
  // and what was allowed (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling:
  // "Input validation errors" are tool execution errors; only a request failing the CallToolRequest schema is
  // a protocol error). The one rule for every revision: CatalogSpec.invalidArguments says why.
  if (checks?.parseInput) {
    // A Standard Schema: the behaviour gets the library's output (its transforms, coercions, defaults).
    const parsed = await checks.parseInput(args);
    if (!parsed.ok) return invalidArguments(def, name, parsed.problems);
    args = parsed.value;
  } else if (checks?.input && !checks.input(args)) return invalidArguments(def, name, describe(checks.input));
  // What the behaviour throws is the server's to answer (McpServer.answerThrown, McpHandlers).
  const value = await behaviour(args, ctx);
  const mode: ToolOutput = tool.output ?? (tool['outputSchema'] ? 'wrapped' : 'text');
  // The whole result, as the tool built it (mode `result`, or a value made with results.ts's helpers): checked
  // against the revision's CallToolResult before it is sent.
  if (mode === 'result' || isToolResult(value)) return value as Answer<'tools/call'>;
  // isError is optional and absent means false ($def CallToolResult); `isErrorFalse: 'omit'` leaves it out.
  const ok = def.spec.isErrorFalse === 'omit' ? {} : { isError: false };
  if (mode === 'text') return { content: [{ type: 'text', text: textOf(value) }], ...ok };
  let structured = (mode === 'wrapped' ? { result: value } : value) as JsonObject;
  if (checks?.parseOutput) {
    // A Standard Schema: the client receives the library's output, which the advertised outputSchema describes.
    const parsed = await checks.parseOutput(structured);
    if (!parsed.ok) return outputMismatch(name, parsed.problems);
    structured = parsed.value as JsonObject;
  } else if (checks?.output && !checks.output(structured)) return outputMismatch(name, describe(checks.output));
  const text = mode === 'wrapped' ? textOf(value) : canonicalJson(structured);
  return { content: [{ type: 'text', text }], ...ok, structuredContent: structured };
}

async function readResource(def: CatalogDefinition, params: HandlerParams<'resources/read'>, ctx: RequestContext): Promise<Answer<'resources/read'>> {
  const { uri } = params;
  const contents = (body: ResourceBody, mimeType: unknown): Answer<'resources/read'>['contents'] => {
    const type = typeof body === 'object' && body.mimeType !== undefined ? body.mimeType : mimeType;
    const base = typeof type === 'string' ? { uri, mimeType: type } : { uri };
    if (typeof body === 'string') return [{ ...base, text: body }];
    return [{ ...base, ...('text' in body ? { text: body.text } : { blob: body.blob }) }];
  };
  const resource = def.spec.resources?.find((r) => r.uri === uri);
  const read = resource ? def.behaviours.resources?.[uri] : undefined;
  if (resource && read) return { contents: contents(await read(ctx), resource['mimeType']) };
  for (const template of def.spec.resourceTemplates ?? []) {
    const vars = matchTemplate(template.uriTemplate, uri);
    const readTemplate = def.behaviours.resourceTemplates?.[template.uriTemplate] as
      ((vars: unknown, ctx: RequestContext) => ResourceBody | Promise<ResourceBody>) | undefined;
    if (vars && readTemplate) return { contents: contents(await readTemplate(vars, ctx), template['mimeType']) };
  }
  throw paramsError(`Unknown resource: ${uri}`, { uri });
}

async function getPrompt(def: CatalogDefinition, params: HandlerParams<'prompts/get'>, ctx: RequestContext): Promise<Answer<'prompts/get'>> {
  const { name } = params;
  const prompt = def.spec.prompts?.find((p) => p.name === name);
  const render = def.behaviours.prompts?.[name] as ((args: unknown, ctx: RequestContext) => PromptBody | Promise<PromptBody>) | undefined;
  if (!prompt || !render) throw paramsError(`Unknown prompt: ${name}`);
  const args = params.arguments ?? {};
  const declared = (prompt['arguments'] ?? []) as { name: string; required?: boolean }[];
  const missing = declared.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  if (missing.length) throw paramsError('Missing required prompt arguments', { missing });
  const parse = def.promptParsers?.[name];
  let values: unknown = args;
  if (parse) {
    // Arguments given as a Standard Schema: the function gets the library's output, or the request is -32602.
    const parsed = await parse(args);
    if (!parsed.ok) throw paramsError(`Invalid arguments for prompt ${name}: ${parsed.problems}`);
    values = parsed.value;
  }
  const body = await render(values, ctx);
  const description = typeof body === 'object' && body.description !== undefined ? body.description : prompt['description'];
  const messages: PromptMessage[] = typeof body === 'string' ? [{ role: 'user', content: { type: 'text', text: body } }] : body.messages;
  return typeof description === 'string' ? { description, messages } : { messages };
}

/** completion/complete: the sample's `complete` function decides, for any reference (it may throw -32602). */
async function complete(
  def: CatalogDefinition,
  params: HandlerParams<'completion/complete'>,
  ctx: RequestContext,
): Promise<Answer<'completion/complete'>> {
  const { ref, argument, context } = params;
  const query = { ref: { ...ref }, argument, ...(context ? { context: { ...context } } : {}) };
  const values = def.behaviours.complete ? await def.behaviours.complete(query, ctx) : [];
  const sent = values.slice(0, MAX_COMPLETION_VALUES);
  // total and hasMore are optional ($def CompleteResult); `completionCounts: 'omit'` leaves them out.
  if (def.spec.completionCounts === 'omit') return { completion: { values: sent } };
  return { completion: { values: sent, total: values.length, hasMore: values.length > MAX_COMPLETION_VALUES } };
}

/** The MCP method handlers of a catalog, typed by the newest pin. */
export function catalogHandlers(def: CatalogDefinition): McpHandlers {
  const { spec } = def;
  const size = spec.pageSize;
  const handlers: McpHandlers = {};
  if (spec.tools) {
    const listTools = pagedList(spec.tools.filter((t) => t.listed !== false).map(listedTool), 'tools/list', 'tools', size);
    handlers['tools/list'] = (params) => listTools(params.cursor) as ListResult<'tools/list'>;
    const byName = toolsByName(def);
    handlers['tools/call'] = (params, ctx) => callTool(def, byName, params, ctx);
  }
  if (spec.resources || spec.resourceTemplates) {
    const resources = (spec.resources ?? []).map((r) => withoutScopes(r) as Resource);
    const templates = (spec.resourceTemplates ?? []).map((t) => withoutScopes(t) as ResourceTemplate);
    const listResources = pagedList(resources, 'resources/list', 'resources', size);
    const listTemplates = pagedList(templates, 'resources/templates/list', 'resourceTemplates', size);
    handlers['resources/list'] = (params) => listResources(params.cursor) as ListResult<'resources/list'>;
    handlers['resources/templates/list'] = (params) => listTemplates(params.cursor) as ListResult<'resources/templates/list'>;
    handlers['resources/read'] = (params, ctx) => readResource(def, params, ctx);
  }
  if (spec.prompts) {
    const prompts = spec.prompts.map((p) => withoutScopes(p) as Prompt);
    const listPrompts = pagedList(prompts, 'prompts/list', 'prompts', size);
    handlers['prompts/list'] = (params) => listPrompts(params.cursor) as ListResult<'prompts/list'>;
    handlers['prompts/get'] = (params, ctx) => getPrompt(def, params, ctx);
  }
  if (def.behaviours.complete) handlers['completion/complete'] = (params, ctx) => complete(def, params, ctx);
  return handlers;
}

/** Server options for a catalog: its identity, capabilities and cache hints, and the handlers above. */
export function catalogServerOptions(def: CatalogDefinition, extra: Partial<McpServerOptions> = {}): McpServerOptions {
  const { spec } = def;
  const tools = toolsByName(def);
  const requiredScopes = unionScopes(catalogScopes(spec), extra.requiredScopes);
  return {
    serverInfo: spec.serverInfo,
    ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
    ...(spec.instructionsIn !== undefined ? { instructionsIn: spec.instructionsIn } : {}),
    ...(spec.supportedVersions !== undefined ? { supportedVersions: spec.supportedVersions } : {}),
    ...(spec.methodNotFound !== undefined ? { methodNotFound: spec.methodNotFound } : {}),
    ...(spec.thrownErrors !== undefined ? { thrownErrors: spec.thrownErrors } : {}),
    capabilities: spec.capabilities,
    ...(spec.cache ? { cache: spec.cache } : {}),
    handlers: catalogHandlers(def),
    toolInputSchema: (name) => tools.get(name)?.inputSchema,
    ...extra,
    ...(requiredScopes ? { requiredScopes } : {}),
  };
}
