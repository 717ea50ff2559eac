/**
 * @module sdk/types — the callback types of an SDK-style server: a tool's and a prompt's callback get the
 * value their schema parses to (`(args, ctx)`), or only the context when they have no schema (`(ctx)`), as
 * the SDK v2 types them.
 */
import type { ServerContext } from './context.ts';
import type { CallToolResult, GetPromptResult } from './registry.ts';
import type { InferOutput, StandardSchemaWithJSON } from './schema.ts';

type Async<T> = T | Promise<T>;

export type ToolCallback<I extends StandardSchemaWithJSON | undefined = undefined> = [I] extends [StandardSchemaWithJSON]
  ? (args: InferOutput<I>, ctx: ServerContext) => Async<CallToolResult>
  : (ctx: ServerContext) => Async<CallToolResult>;

export type PromptCallback<A extends StandardSchemaWithJSON | undefined = undefined> = [A] extends [StandardSchemaWithJSON]
  ? (args: InferOutput<A>, ctx: ServerContext) => Async<GetPromptResult>
  : (ctx: ServerContext) => Async<GetPromptResult>;
