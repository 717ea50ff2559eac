/**
 * @module bench/validation/corpus — the fixed validation corpus: every JSON message of the seed 000 MCP
 * recordings (test/fixtures/recordings/mcp_sdk_exchanges.json) and every 2026-07-28 schema example
 * (schemas/mcp/2026-07-28/examples/<Def>/*.json), each paired with
 *   - our generated validator for it, in the revision its session speaks (as test/generated/recordings.test.ts
 *     pairs them: a request or notification by its method's message validator, a result by its request's
 *     method, an error by JSONRPCErrorResponse; an example by its <Def>);
 *   - the official SDK's Zod schema for the same kind of message (requests and notifications by method, results
 *     by the request's method, errors by JSONRPCErrorResponseSchema, an example by `<Def>Schema`), when the SDK
 *     has one.
 * The comparison corpus is the items both sides accept; everything left out is listed with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib/proc.ts';

export interface CorpusItem {
  /** Where it comes from: `seed000 legacy_tour #3` or `example CallToolRequest/simple.json`. */
  readonly source: string;
  /** The revision whose generated package validates it (generated/mcp-<revision>/). */
  readonly revision: string;
  /** Our validator: an export of generated/mcp-<revision>/validators.js, also the `$defs` name ajv compiles. */
  readonly def: string;
  /** The SDK's Zod schema: an export of @modelcontextprotocol/sdk/types.js, when there is one. */
  readonly sdk?: string;
  readonly data: unknown;
}

export interface Excluded {
  readonly source: string;
  readonly reason: string;
}

export interface Corpus {
  /** Ours and the SDK's Zod both accept these: the comparison corpus. */
  readonly common: CorpusItem[];
  /** Everything our validators accept (the common items and the ones the SDK has no schema for or rejects). */
  readonly ours: CorpusItem[];
  readonly excluded: Excluded[];
}

interface Message {
  from: string;
  to: string;
  json?: Record<string, unknown>;
}
interface Session {
  name: string;
  mode?: string;
  messages: Message[];
}
type Validator = ((d: unknown) => boolean) & { errors?: unknown };
interface Pkg {
  lookup(method: string): { message?: Validator; result?: Validator } | undefined;
  validators: Record<string, Validator>;
}
type Zod = { safeParse(d: unknown): { success: boolean; error?: unknown } };

/** The SDK's result schema of each request method (the SDK keeps no such table; these are its names). */
const SDK_RESULTS: Record<string, string> = {
  initialize: 'InitializeResultSchema',
  ping: 'EmptyResultSchema',
  'tools/list': 'ListToolsResultSchema',
  'tools/call': 'CallToolResultSchema',
  'resources/list': 'ListResourcesResultSchema',
  'resources/templates/list': 'ListResourceTemplatesResultSchema',
  'resources/read': 'ReadResourceResultSchema',
  'resources/subscribe': 'EmptyResultSchema',
  'resources/unsubscribe': 'EmptyResultSchema',
  'prompts/list': 'ListPromptsResultSchema',
  'prompts/get': 'GetPromptResultSchema',
  'completion/complete': 'CompleteResultSchema',
  'logging/setLevel': 'EmptyResultSchema',
  'sampling/createMessage': 'CreateMessageResultSchema',
  'elicitation/create': 'ElicitResultSchema',
  'roots/list': 'ListRootsResultSchema',
};

export const REVISIONS = ['2024-11-05', '2025-11-25', '2026-07-28'] as const;

export async function buildCorpus(): Promise<Corpus> {
  const pkgs: Record<string, Pkg> = {};
  const names: Record<string, Map<unknown, string>> = {};
  for (const r of REVISIONS) {
    pkgs[r] = (await import(join(ROOT, `generated/mcp-${r}/index.ts`))) as Pkg;
    names[r] = new Map(Object.entries(pkgs[r]!.validators).map(([k, v]) => [v, k]));
  }
  const sdk = (await import('@modelcontextprotocol/sdk/types.js')) as unknown as Record<string, unknown>;
  const sdkName = new Map<unknown, string>(Object.entries(sdk).map(([k, v]) => [v, k]));
  /** method → the SDK's request or notification schema, from its own ClientRequest/ServerRequest/… unions. */
  const sdkByMethod = new Map<string, string>();
  for (const union of ['ClientRequestSchema', 'ServerRequestSchema', 'ClientNotificationSchema', 'ServerNotificationSchema']) {
    for (const option of (sdk[union] as { options: { shape: { method: { value: string } } }[] }).options) {
      const name = sdkName.get(option);
      if (name) sdkByMethod.set(option.shape.method.value, name);
    }
  }

  const candidates: { source: string; revision: string; def: string | undefined; sdk: string | undefined; data: unknown; why?: string }[] = [];

  const sessions = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/recordings/mcp_sdk_exchanges.json'), 'utf8')) as Session[];
  for (const session of sessions) {
    const revision = revisionOf(session);
    const pkg = pkgs[revision]!;
    const pending = new Map<string, string>();
    session.messages.forEach((m, index) => {
      const json = m.json;
      const source = `seed000 ${session.name} #${index}`;
      if (!json) return candidates.push({ source, revision, def: undefined, sdk: undefined, data: undefined, why: 'not JSON (a raw line)' });
      if (typeof json['method'] === 'string' && 'id' in json) pending.set(`${m.from}:${String(json['id'])}`, json['method']);
      if (session.mode === 'raw' && m.from === 'client')
        return candidates.push({ source, revision, def: undefined, sdk: undefined, data: json, why: 'a deliberately malformed client line of a raw session' });
      if (typeof json['method'] === 'string') {
        const entry = pkg.lookup(json['method']);
        candidates.push({ source, revision, def: entry?.message && names[revision]!.get(entry.message), sdk: sdkByMethod.get(json['method']), data: json });
      } else if ('result' in json) {
        const method = pending.get(`${m.to}:${String(json['id'])}`);
        const result = json['result'] as { resultType?: string };
        const inputRequired = result.resultType === 'input_required';
        const v = inputRequired ? pkg.validators['InputRequiredResult'] : method ? pkg.lookup(method)?.result : undefined;
        candidates.push({ source, revision, def: v && names[revision]!.get(v), sdk: inputRequired || !method ? undefined : SDK_RESULTS[method], data: result });
      } else if ('error' in json) {
        const def = pkg.validators['JSONRPCErrorResponse'] ? 'JSONRPCErrorResponse' : 'JSONRPCError';
        candidates.push({ source, revision, def, sdk: 'JSONRPCErrorResponseSchema', data: json });
      }
    });
  }

  const examples = join(ROOT, 'schemas/mcp/2026-07-28/examples');
  for (const def of readdirSync(examples).sort()) {
    for (const file of readdirSync(join(examples, def)).filter((f) => f.endsWith('.json')).sort()) {
      const data = JSON.parse(readFileSync(join(examples, def, file), 'utf8')) as unknown;
      const sdkSchema = `${def}Schema`;
      candidates.push({ source: `example ${def}/${file}`, revision: '2026-07-28', def: pkgs['2026-07-28']!.validators[def] ? def : undefined, sdk: sdkSchema in sdk ? sdkSchema : undefined, data });
    }
  }

  const common: CorpusItem[] = [];
  const ours: CorpusItem[] = [];
  const excluded: Excluded[] = [];
  for (const c of candidates) {
    if (c.why) {
      excluded.push({ source: c.source, reason: c.why });
      continue;
    }
    if (!c.def) {
      excluded.push({ source: c.source, reason: 'no validator of ours for it' });
      continue;
    }
    const v = pkgs[c.revision]!.validators[c.def]!;
    if (!v(c.data)) {
      excluded.push({ source: c.source, reason: `our ${c.def} (${c.revision}) rejects it: ${JSON.stringify(v.errors).slice(0, 200)}` });
      continue;
    }
    const item: CorpusItem = { source: c.source, revision: c.revision, def: c.def, ...(c.sdk ? { sdk: c.sdk } : {}), data: c.data };
    ours.push(item);
    if (!c.sdk) {
      excluded.push({ source: c.source, reason: `ours only: the SDK has no schema for ${c.def} (2026-07-28 only)` });
      continue;
    }
    const parsed = (sdk[c.sdk] as Zod).safeParse(c.data);
    if (!parsed.success) {
      excluded.push({ source: c.source, reason: `ours only: the SDK's ${c.sdk} rejects it (${String(parsed.error).replace(/\s+/g, ' ').slice(0, 160)})` });
      continue;
    }
    common.push(item);
  }
  return { common, ours, excluded };
}

/** The revision a session speaks: the one its initialize result agreed, else 2026-07-28. */
function revisionOf(session: Session): string {
  for (const m of session.messages) {
    const v = (m.json?.['result'] as { protocolVersion?: string } | undefined)?.protocolVersion;
    if (typeof v === 'string') return v;
  }
  return '2026-07-28';
}

/** Annotation keywords the generator strips before compiling (generator/emit/validators.ts); ajv ignores them. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (ANNOTATIONS.has(k)) continue;
    if (['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].includes(k)) {
      const inner: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(v as Record<string, unknown>)) inner[name] = strip(sub);
      out[k] = inner;
    } else if (k === 'enum' || k === 'const' || k === 'required') out[k] = v;
    else out[k] = strip(v);
  }
  return out;
}

/**
 * The JSON Schema document our validators were compiled from, for compiling at run time: the pin's
 * schema.json definitions (annotations stripped, as the generator does) under an `$id` of our own.
 */
export function schemaDocument(revision: string): { doc: Record<string, unknown>; id: string; defsKey: string; draft: '2020-12' | 'draft-07' } {
  const raw = JSON.parse(readFileSync(join(ROOT, `schemas/mcp/${revision}/schema.json`), 'utf8')) as Record<string, unknown>;
  const draft = String(raw['$schema']).includes('2020-12') ? '2020-12' : 'draft-07';
  const defsKey = '$defs' in raw ? '$defs' : 'definitions';
  const id = `urn:wiregen-bench:mcp:${revision}`;
  return { doc: { $schema: raw['$schema'], $id: id, [defsKey]: strip(raw[defsKey]) }, id, defsKey, draft };
}
