/**
 * @module sdk/registry — what an SDK-style server registers (tools, resources, resource templates, prompts)
 * and the handles `register*` return: `enable()`, `disable()`, `update()`, `remove()`, each announcing the
 * list change (notifications/<kind>/list_changed,
 * https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification).
 */
import type { CallResult, Icon, Resource, ToolAnnotations } from '@wiregen/mcp-2026-07-28';
import type { JsonObject } from '../jsonrpc/message.ts';
import type { ServerContext } from './context.ts';
import type { ResourceTemplate } from './resource-template.ts';
import type { InferOutput, StandardSchemaWithJSON } from './schema.ts';

type Async<T> = T | Promise<T>;
export type CallToolResult = CallResult<'tools/call'>;
export type ReadResourceResult = CallResult<'resources/read'>;
export type GetPromptResult = CallResult<'prompts/get'>;
export type ListResourcesResult = CallResult<'resources/list'>;
/** A resource's listing fields beside its uri and name (the SDK's `ResourceMetadata`). */
export type ResourceMetadata = Omit<Resource, 'uri' | 'name'>;
/** A template's variables as matched from a URI (the SDK's `Variables`). */
export type Variables = Record<string, string | string[]>;

/**
 * A tool's callback as the SDK v2 types it: the value its input schema parses to and the context
 * (`(args, ctx)`), or only the context when it has no input schema (`(ctx)`).
 */
export type ToolCallback<I extends StandardSchemaWithJSON | undefined = undefined> = [I] extends [StandardSchemaWithJSON]
  ? (args: InferOutput<I>, ctx: ServerContext) => Async<CallToolResult>
  : (ctx: ServerContext) => Async<CallToolResult>;
/** A prompt's callback: `(args, ctx)` with an argsSchema, `(ctx)` without one. */
export type PromptCallback<A extends StandardSchemaWithJSON | undefined = undefined> = [A] extends [StandardSchemaWithJSON]
  ? (args: InferOutput<A>, ctx: ServerContext) => Async<GetPromptResult>
  : (ctx: ServerContext) => Async<GetPromptResult>;

/** A tool callback: `(args, ctx)` with an inputSchema, `(ctx)` without one. */
export type AnyToolCallback = ((args: never, ctx: ServerContext) => Async<CallToolResult>) | ((ctx: ServerContext) => Async<CallToolResult>);
export type AnyPromptCallback = ((args: never, ctx: ServerContext) => Async<GetPromptResult>) | ((ctx: ServerContext) => Async<GetPromptResult>);
export type ReadResourceCallback = (uri: URL, ctx: ServerContext) => Async<ReadResourceResult>;
export type ReadResourceTemplateCallback = (uri: URL, variables: Variables, ctx: ServerContext) => Async<ReadResourceResult>;

export interface RegisteredTool {
  title?: string;
  description?: string;
  inputSchema?: StandardSchemaWithJSON;
  outputSchema?: StandardSchemaWithJSON;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  handler: AnyToolCallback;
  enabled: boolean;
  enable(): void;
  disable(): void;
  update(updates: {
    name?: string | null;
    title?: string;
    description?: string;
    paramsSchema?: StandardSchemaWithJSON;
    outputSchema?: StandardSchemaWithJSON;
    annotations?: ToolAnnotations;
    icons?: Icon[];
    _meta?: JsonObject;
    callback?: AnyToolCallback;
    enabled?: boolean;
  }): void;
  remove(): void;
}

export interface RegisteredResource {
  name: string;
  title?: string;
  metadata?: ResourceMetadata;
  readCallback: ReadResourceCallback;
  enabled: boolean;
  enable(): void;
  disable(): void;
  update(updates: {
    name?: string;
    title?: string;
    uri?: string | null;
    metadata?: ResourceMetadata;
    callback?: ReadResourceCallback;
    enabled?: boolean;
  }): void;
  remove(): void;
}

export interface RegisteredResourceTemplate {
  resourceTemplate: ResourceTemplate;
  title?: string;
  metadata?: ResourceMetadata;
  readCallback: ReadResourceTemplateCallback;
  enabled: boolean;
  enable(): void;
  disable(): void;
  update(updates: {
    name?: string | null;
    title?: string;
    template?: ResourceTemplate;
    metadata?: ResourceMetadata;
    callback?: ReadResourceTemplateCallback;
    enabled?: boolean;
  }): void;
  remove(): void;
}

export interface RegisteredPrompt {
  title?: string;
  description?: string;
  argsSchema?: StandardSchemaWithJSON;
  icons?: Icon[];
  _meta?: JsonObject;
  callback: AnyPromptCallback;
  enabled: boolean;
  enable(): void;
  disable(): void;
  update(updates: {
    name?: string | null;
    title?: string;
    description?: string;
    argsSchema?: StandardSchemaWithJSON;
    icons?: Icon[];
    _meta?: JsonObject;
    callback?: AnyPromptCallback;
    enabled?: boolean;
  }): void;
  remove(): void;
}

/** The items of one server, by name (tools, templates, prompts) or by URI (resources), in registration order. */
export interface Registry {
  readonly tools: Map<string, RegisteredTool>;
  readonly resources: Map<string, RegisteredResource>;
  readonly templates: Map<string, RegisteredResourceTemplate>;
  readonly prompts: Map<string, RegisteredPrompt>;
}

/**
 * The handle's `update`: each given field set, a new name (or `null`: removal) moving the entry, `enabled`
 * switching it; then `changed()` announces the list change.
 */
export function applyUpdate<T extends { enabled: boolean }>(
  item: T,
  updates: Partial<Record<string, unknown>>,
  fields: Readonly<Record<string, keyof T>>,
  rename: (to: string | null) => void,
  changed: () => void,
): void {
  if (updates['name'] !== undefined) rename(updates['name'] as string | null);
  for (const [from, to] of Object.entries(fields)) if (updates[from] !== undefined) item[to] = updates[from] as T[keyof T];
  if (updates['enabled'] !== undefined) item.enabled = updates['enabled'] as boolean;
  changed();
}

/** Moves `key`'s entry of `map` to `to` (`null`: removes it); returns the key it has now. */
export function moveEntry<V>(map: Map<string, V>, key: string, to: string | null): string {
  const value = map.get(key);
  if (to === key || value === undefined) return key;
  map.delete(key);
  if (to !== null) map.set(to, value);
  return to ?? key;
}
