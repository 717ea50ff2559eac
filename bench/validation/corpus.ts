/**
 * @module bench/validation/corpus — the fixed validation corpus: every JSON message of the official SDK MCP
 * recordings (test/fixtures/recordings/mcp_sdk_exchanges.json) and every 2026-07-28 schema example
 * (schemas/mcp/2026-07-28/examples/<Def>/*.json), each paired with
 *   - our generated validator for it, in the revision its session speaks, exactly as
 *     test/generated/recordings.test.ts pairs them (test/helpers/recordings.ts: a request or notification by
 *     its method's message validator, a result by its request's method, an error by JSONRPCErrorResponse; an
 *     example by its <Def>, as test/helpers/examples.ts loads them);
 *   - the official SDK's Zod schema for the same kind of message (requests and notifications by method, results
 *     by the request's method, errors by JSONRPCErrorResponseSchema, an example by `<Def>Schema`), when the SDK
 *     has one.
 * The comparison corpus is the items both sides accept; everything left out is listed with the reason.
 * The recordings and examples are read by the test helpers, so the benchmark measures what the tests check.
 */
import { join } from 'node:path';
import { cases } from '../../test/helpers/examples.ts';
import { loadMcpSessions, recordedChecks, revisionOf, type McpPackage, type RecordedCheck } from '../../test/helpers/recordings.ts';
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
  const pkgs: Record<string, McpPackage> = {};
  for (const r of REVISIONS) pkgs[r] = (await import(join(ROOT, `generated/mcp-${r}/index.ts`))) as McpPackage;
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

  /** The SDK's schema for the same kind of message: none for an input_required result (2026-07-28 only). */
  const sdkSchemaOf = (c: RecordedCheck): string | undefined => {
    if (c.kind === 'message') return sdkByMethod.get(c.method!);
    if (c.kind === 'error') return 'JSONRPCErrorResponseSchema';
    return c.def === 'InputRequiredResult' || !c.method ? undefined : SDK_RESULTS[c.method];
  };

  const candidates: { source: string; revision: string; def: string | undefined; sdk: string | undefined; data: unknown; why?: string }[] = [];

  for (const session of loadMcpSessions()) {
    const revision = revisionOf(session);
    const checks = new Map(recordedChecks(session, pkgs[revision]!).map((c) => [c.index, c]));
    session.messages.forEach((m, index) => {
      const source = `seed000 ${session.name} #${index}`;
      const c = checks.get(index);
      if (!m.json) return candidates.push({ source, revision, def: undefined, sdk: undefined, data: undefined, why: 'not JSON (a raw line)' });
      if (!c) return;
      if (c.handWritten)
        return candidates.push({
          source,
          revision,
          def: undefined,
          sdk: undefined,
          data: c.data,
          why: 'a deliberately malformed client line of a raw session',
        });
      candidates.push({ source, revision, def: c.def, sdk: sdkSchemaOf(c), data: c.data });
    });
  }

  for (const { def, file, example } of cases) {
    const sdkSchema = `${def}Schema`;
    candidates.push({
      source: `example ${def}/${file}`,
      revision: '2026-07-28',
      def: pkgs['2026-07-28']!.validators[def] ? def : undefined,
      sdk: sdkSchema in sdk ? sdkSchema : undefined,
      data: example,
    });
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
      excluded.push({
        source: c.source,
        reason: `ours only: the SDK's ${c.sdk} rejects it (${String(parsed.error).replace(/\s+/g, ' ').slice(0, 160)})`,
      });
      continue;
    }
    common.push(item);
  }
  return { common, ours, excluded };
}
