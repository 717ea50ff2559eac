/**
 * @module sdk/handlers — the MCP method handlers of an SDK-style server, on wiregen's McpServer: each request
 * is answered from the registry its server holds now (items enabled, disabled, updated or removed after the
 * server started are served as they are then), with the SDK v2 McpServer's answers: a tool's result as its
 * callback returns it, arguments the schema rejects and whatever the callback throws as an isError result
 * (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling), an unknown or
 * disabled item -32602, a resource miss -32602 with the uri. The era's envelope, the schema checks of params
 * and results, cancellation and input rounds are the runtime's, as for every wiregen server.
 */
import type { HandlerParams } from '@wiregen/mcp-2026-07-28';
import { ErrorCode, JsonRpcError, type JsonObject } from '../jsonrpc/message.ts';
import { InputRequired } from '../mcp/stateless/mrtr.ts';
import type { McpHandlers, RequestContext } from '../mcp/server/types.ts';
import { complete } from './completion.ts';
import { serverContext, type ServerContext } from './context.ts';
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from './errors.ts';
import type { CallToolResult, GetPromptResult, ReadResourceResult, RegisteredTool, Registry } from './registry.ts';
import { jsonSchemaOf, promptArguments, validate, type StandardSchemaWithJSON } from './schema.ts';

/** Finds the registry that answers a request (one server's, or one built for this request) and its HTTP fields. */
export type RegistryOf = (ctx: RequestContext) => Registry | Promise<Registry>;
export type HttpOf = (ctx: RequestContext) => ServerContext['http'] | undefined;

/** Drops the undefined members (the SDK leaves them out of the JSON it sends). */
function defined(fields: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as JsonObject;
}

/**
 * Each schema's derived JSON Schema, once per side (a schema is immutable; the same one may serve many
 * servers and requests): the promise, and the value once it is there (for what must be read synchronously).
 */
const derived = { input: new WeakMap<object, Promise<JsonObject>>(), output: new WeakMap<object, Promise<JsonObject>>() };
const settled = new WeakMap<object, JsonObject>();
export function schemaJson(schema: StandardSchemaWithJSON, io: 'input' | 'output', what: string): Promise<JsonObject> {
  let json = derived[io].get(schema);
  if (!json) {
    json = jsonSchemaOf(schema, io, what);
    derived[io].set(schema, json);
    if (io === 'input') json.then((j) => settled.set(schema, j)).catch(() => undefined);
  }
  return json;
}
/** A tool's input JSON Schema if derived already (the HTTP `Mcp-Param-*` check reads it synchronously). */
export const derivedInput = (schema: StandardSchemaWithJSON): JsonObject | undefined => settled.get(schema);
const EMPTY_OBJECT: JsonObject = { type: 'object', properties: {} };

/** A tool as tools/list shows it. */
export async function listedTool(name: string, tool: RegisteredTool): Promise<JsonObject> {
  return defined({
    name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema ? await schemaJson(tool.inputSchema, 'input', `tool ${name}`) : EMPTY_OBJECT,
    annotations: tool.annotations,
    icons: tool.icons,
    _meta: tool._meta,
    outputSchema: tool.outputSchema ? await schemaJson(tool.outputSchema, 'output', `tool ${name}`) : undefined,
  });
}

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** What must leave a tool callback as it is: the runtime's input round (2026-07-28) and a URL elicitation error (-32042). */
const passesThrough = (err: unknown): boolean =>
  err instanceof InputRequired || (err instanceof JsonRpcError && err.code === ProtocolErrorCode.UrlElicitationRequired);

async function callTool(tool: RegisteredTool, name: string, args: JsonObject, sdkCtx: ServerContext): Promise<CallToolResult> {
  let parsed: unknown;
  if (tool.inputSchema) {
    const checked = await validate(tool.inputSchema, args);
    if (!checked.ok) return toolError(`Input validation error: Invalid arguments for tool ${name}: ${checked.text}`);
    parsed = checked.value;
  }
  const cb = tool.handler as (...a: unknown[]) => CallToolResult | Promise<CallToolResult>;
  const result = await (tool.inputSchema ? cb(parsed, sdkCtx) : cb(sdkCtx));
  // The structured content is checked against the output schema unless the result reports an error.
  if (tool.outputSchema && !result.isError) {
    if (result.structuredContent === undefined)
      return toolError(`Output validation error: Tool ${name} has an output schema but no structured content was provided`);
    const checked = await validate(tool.outputSchema, result.structuredContent);
    if (!checked.ok) return toolError(`Output validation error: Invalid structured content for tool ${name}: ${checked.text}`);
  }
  return result;
}

async function readResource(registry: Registry, raw: string, sdkCtx: ServerContext): Promise<ReadResourceResult> {
  let uri: URL;
  try {
    uri = new URL(raw);
  } catch {
    throw new ProtocolError(ErrorCode.InvalidParams, `Resource URI ${raw} is invalid`, { uri: raw, reason: 'invalid_uri' });
  }
  const resource = registry.resources.get(uri.toString());
  if (resource) {
    if (!resource.enabled) throw new ProtocolError(ErrorCode.InvalidParams, `Resource ${uri.toString()} disabled`);
    return resource.readCallback(uri, sdkCtx);
  }
  for (const template of registry.templates.values()) {
    const variables = template.resourceTemplate.uriTemplate.match(uri.toString());
    if (!variables) continue;
    if (!template.enabled)
      throw new ProtocolError(ErrorCode.InvalidParams, `Resource template ${template.resourceTemplate.uriTemplate.toString()} disabled`);
    return template.readCallback(uri, variables, sdkCtx);
  }
  throw new ResourceNotFoundError(raw);
}

async function getPrompt(registry: Registry, params: HandlerParams<'prompts/get'>, sdkCtx: ServerContext): Promise<GetPromptResult> {
  const { name } = params;
  const prompt = registry.prompts.get(name);
  if (!prompt) throw new ProtocolError(ErrorCode.InvalidParams, `Prompt ${name} not found`);
  if (!prompt.enabled) throw new ProtocolError(ErrorCode.InvalidParams, `Prompt ${name} disabled`);
  const cb = prompt.callback as (...a: unknown[]) => GetPromptResult | Promise<GetPromptResult>;
  if (!prompt.argsSchema) return cb(sdkCtx);
  const checked = await validate(prompt.argsSchema, params.arguments ?? {});
  if (!checked.ok) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${checked.text}`);
  return cb(checked.value, sdkCtx);
}

/** The handlers of the methods an SDK-style server serves (which ones: what its capabilities advertise). */
export function sdkHandlers(registryOf: RegistryOf, httpOf: HttpOf): McpHandlers {
  const context = (ctx: RequestContext, params: object) => serverContext(ctx, params as JsonObject, httpOf(ctx));
  return {
    'tools/list': async (_params, ctx) => {
      const { tools } = await registryOf(ctx);
      return { tools: await Promise.all([...tools].filter(([, t]) => t.enabled).map(([name, t]) => listedTool(name, t))) } as never;
    },
    'tools/call': async (params, ctx) => {
      const { name } = params;
      const tool = (await registryOf(ctx)).tools.get(name);
      if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      if (!tool.enabled) throw new ProtocolError(ErrorCode.InvalidParams, `Tool ${name} disabled`);
      try {
        return await callTool(tool, name, (params.arguments ?? {}) as JsonObject, context(ctx, params));
      } catch (err) {
        // Every throw of a tool callback, a ProtocolError too, is an isError result the model reads.
        if (passesThrough(err)) throw err;
        return toolError(err instanceof Error ? err.message : String(err));
      }
    },
    'resources/list': async (_params, ctx) => {
      const registry = await registryOf(ctx);
      const listed = [...registry.resources].filter(([, r]) => r.enabled).map(([uri, r]) => ({ uri, name: r.name, ...r.metadata }));
      for (const template of registry.templates.values()) {
        const list = template.resourceTemplate.listCallback;
        if (list) for (const r of (await list(context(ctx, {}))).resources) listed.push({ ...template.metadata, ...r });
      }
      return { resources: listed } as never;
    },
    'resources/templates/list': async (_params, ctx) => {
      const { templates } = await registryOf(ctx);
      return {
        resourceTemplates: [...templates].map(([name, t]) => ({ name, uriTemplate: t.resourceTemplate.uriTemplate.toString(), ...t.metadata })),
      } as never;
    },
    'resources/read': async (params, ctx) => readResource(await registryOf(ctx), params.uri, context(ctx, params)),
    'prompts/list': async (_params, ctx) => {
      const { prompts } = await registryOf(ctx);
      const listed = await Promise.all(
        [...prompts]
          .filter(([, p]) => p.enabled)
          .map(async ([name, p]) =>
            defined({
              name,
              title: p.title,
              description: p.description,
              arguments: p.argsSchema ? promptArguments(await schemaJson(p.argsSchema, 'input', `prompt ${name}`)) : undefined,
              icons: p.icons,
              _meta: p._meta,
            }),
          ),
      );
      return { prompts: listed } as never;
    },
    'prompts/get': async (params, ctx) => getPrompt(await registryOf(ctx), params, context(ctx, params)),
    'completion/complete': async (params, ctx) => complete(await registryOf(ctx), params),
  };
}
