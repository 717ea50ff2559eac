/**
 * @module sdk/completion — completion/complete as the SDK serves it
 * (https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion): a prompt argument
 * wrapped with `completable(schema, complete)`, or a template variable with a `complete` callback of its
 * `ResourceTemplate`, suggests values; anything else suggests none.
 */
import type { CallResult, HandlerParams } from '@wiregen/mcp-2026-07-28';
import { ErrorCode } from '../jsonrpc/message.ts';
import { MAX_COMPLETION_VALUES } from '../mcp/protocol.ts';
import { ProtocolError } from './errors.ts';
import type { Registry } from './registry.ts';

export type CompleteCallback = (value: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>;

const completers = new WeakMap<object, CompleteCallback>();

/** The schema, unchanged for validation, with `complete` suggesting its values. */
export function completable<S extends object>(schema: S, complete: CompleteCallback): S {
  completers.set(schema, complete);
  return schema;
}
export function isCompletable(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && completers.has(schema);
}

/** A field of an object schema by name, unwrapped of `.optional()` (Zod's `shape`, `unwrap()`). */
function field(schema: unknown, name: string): object | undefined {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  let f = shape?.[name] as { unwrap?: () => unknown } | undefined;
  for (let i = 0; f && !completers.has(f) && typeof f.unwrap === 'function' && i < 4; i++) f = f.unwrap() as typeof f;
  return f;
}

/** Whether any registered prompt argument or template variable suggests values (the `completions` capability). */
export function offersCompletions(registry: Registry): boolean {
  for (const p of registry.prompts.values()) {
    const shape = (p.argsSchema as { shape?: Record<string, unknown> } | undefined)?.shape;
    if (shape && Object.keys(shape).some((k) => field(p.argsSchema, k) && completers.has(field(p.argsSchema, k)!))) return true;
  }
  for (const t of registry.templates.values())
    if (t.resourceTemplate.uriTemplate.variableNames.some((v) => t.resourceTemplate.completeCallback(v))) return true;
  return false;
}

const EMPTY: CallResult<'completion/complete'> = { completion: { values: [], hasMore: false } };

function result(values: string[]): CallResult<'completion/complete'> {
  return { completion: { values: values.slice(0, MAX_COMPLETION_VALUES), total: values.length, hasMore: values.length > MAX_COMPLETION_VALUES } };
}

export async function complete(registry: Registry, params: HandlerParams<'completion/complete'>): Promise<CallResult<'completion/complete'>> {
  const { ref, argument, context } = params;
  const ctx = context?.arguments ? { arguments: { ...context.arguments } } : undefined;
  if (ref.type === 'ref/prompt') {
    const prompt = registry.prompts.get(ref.name);
    if (!prompt) throw new ProtocolError(ErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
    if (!prompt.enabled) throw new ProtocolError(ErrorCode.InvalidParams, `Prompt ${ref.name} disabled`);
    const f = field(prompt.argsSchema, argument.name);
    const completer = f ? completers.get(f) : undefined;
    return completer ? result(await completer(argument.value, ctx)) : EMPTY;
  }
  const template = [...registry.templates.values()].find((t) => t.resourceTemplate.uriTemplate.toString() === ref.uri);
  if (!template) {
    if (registry.resources.has(ref.uri)) return EMPTY;
    throw new ProtocolError(ErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
  }
  const completer = template.resourceTemplate.completeCallback(argument.name);
  return completer ? result(await completer(argument.value, ctx)) : EMPTY;
}
