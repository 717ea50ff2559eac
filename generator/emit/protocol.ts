/**
 * @module emit/protocol — protocol.ts: what a pin's schema fixes beside its types, as data the runtime reads
 * instead of copies of its own: the error codes of the schema's error definitions (with the HTTP status their
 * description requires), the reserved `_meta` keys of its meta objects, and the limits (`maxItems`,
 * `maxLength`) its definitions set. The same tables go into the registry (@wiregen/revisions), so the runtime
 * has them before it loads a revision's validators; the runtime reads them there, never from a package's
 * protocol.ts. A pin whose schema fixes none of them (every MCP revision before 2025-11-25, A2A 1.0) has no
 * protocol.ts and its package no `protocol` export: an export of three empty objects would only be a module
 * to load and an API to keep; its registry entry still has the three tables, empty, as every entry does.
 */
import { isObject, type Json, type JsonObject } from '../load/schema.ts';
import type { PinPlan } from '../plan/index.ts';
import { title } from './dispatch.ts';
import { render } from './templates.ts';

export interface ProtocolTables {
  /** Error definition name → its code, and the HTTP status its description requires ("the response status code MUST be `400 …`"). */
  readonly errors: Readonly<Record<string, { readonly code: number; readonly httpStatus?: number }>>;
  /**
   * The reserved `_meta` keys of the `*MetaObject` definitions, by the name after their prefix:
   * `protocolVersion` → `io.modelcontextprotocol/protocolVersion`.
   */
  readonly metaKeys: Readonly<Record<string, string>>;
  /** Limits by definition and property path (`CompleteResult.completion.values`): `maxItems`, `maxLength`. */
  readonly limits: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

const LIMITS = ['maxItems', 'maxLength'] as const;

/** The constant an error definition fixes for `code`: on its own `code` (JSON-RPC's errors) or its `error`'s (MCP's, as an `allOf`). */
function errorCode(def: JsonObject): number | undefined {
  const props = def['properties'];
  if (!isObject(props)) return undefined;
  const constOf = (code: Json | undefined) => (isObject(code) && Number.isInteger(code['const']) ? (code['const'] as number) : undefined);
  const own = constOf(props['code']);
  if (own !== undefined) return own;
  const error = props['error'];
  if (!isObject(error)) return undefined;
  const parts = [error, ...(Array.isArray(error['allOf']) ? error['allOf'] : [])];
  for (const part of parts)
    if (isObject(part) && isObject(part['properties'])) {
      const code = constOf(part['properties']['code']);
      if (code !== undefined) return code;
    }
  return undefined;
}

/** The HTTP status an error definition's description requires, if it states one. */
function httpStatus(def: JsonObject): number | undefined {
  const description = def['description'];
  const m = typeof description === 'string' ? /status code MUST be\s+`(\d{3})\b/.exec(description) : null;
  return m ? Number(m[1]) : undefined;
}

export function protocolTables(plan: PinPlan): ProtocolTables {
  const errors: Record<string, { code: number; httpStatus?: number }> = {};
  const metaKeys: Record<string, string> = {};
  const limits: Record<string, Record<string, number>> = {};
  for (const [name, def] of Object.entries(plan.defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const code = errorCode(def);
    if (code !== undefined && name.endsWith('Error')) {
      const status = httpStatus(def);
      errors[name] = status === undefined ? { code } : { code, httpStatus: status };
    }
    if (name.endsWith('MetaObject') && isObject(def['properties']))
      for (const key of Object.keys(def['properties']).filter((k) => k.includes('/'))) {
        const short = key.slice(key.lastIndexOf('/') + 1);
        if (metaKeys[short] !== undefined && metaKeys[short] !== key)
          throw new Error(`${plan.id}: the _meta keys ${metaKeys[short]} and ${key} end alike; protocol.ts keys them by their last segment`);
        metaKeys[short] = key;
      }
    // Limits along chains of `properties` (what a handler builds), not inside unions or items.
    const walk = (schema: Json, path: string[]): void => {
      if (!isObject(schema)) return;
      for (const limit of LIMITS) if (typeof schema[limit] === 'number') (limits[path.join('.')] ??= {})[limit] = schema[limit];
      const props = schema['properties'];
      if (isObject(props)) for (const [prop, sub] of Object.entries(props)) walk(sub, [...path, prop]);
    };
    walk(def, [name]);
  }
  return { errors, metaKeys, limits: Object.fromEntries(Object.entries(limits).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/** Whether the pin's schema fixes anything protocol.ts holds, so that the package has one. */
export function hasProtocol(plan: PinPlan): boolean {
  const tables = protocolTables(plan);
  return Object.keys(tables.errors).length + Object.keys(tables.metaKeys).length + Object.keys(tables.limits).length > 0;
}

/** protocol.ts, for a pin that {@link hasProtocol}. */
export function emitProtocol(plan: PinPlan): string {
  const tables = protocolTables(plan);
  return render('protocol.ts', {
    title: title(plan),
    errors: JSON.stringify(tables.errors),
    metaKeys: JSON.stringify(tables.metaKeys),
    limits: JSON.stringify(tables.limits),
  });
}
