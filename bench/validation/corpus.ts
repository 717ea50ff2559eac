/**
 * @module bench/validation/corpus — the fixed validation corpus: every JSON message of the official SDK MCP
 * recordings (test/fixtures/recordings/mcp_sdk_exchanges.json) and every 2026-07-28 schema example
 * (schemas/mcp/2026-07-28/examples/<Def>/*.json), each paired with
 *   - our generated validator for it, in the revision its session speaks, exactly as
 *     test/generated/recordings.test.ts pairs them (test/helpers/recordings.ts: a request or notification by
 *     its method's message validator, a result by its request's method, an error by JSONRPCErrorResponse; an
 *     example by its <Def>, as test/helpers/examples.ts loads them);
 *   - the official SDK v2's Zod schema of the same spec type (`specTypeSchemas[<Def>]` of
 *     @modelcontextprotocol/server 2.4.0, keyed by the specification's type names), when it has one.
 * The accept corpus is the items both sides accept; the reject corpus is those items mutated (mutate.ts) into
 * messages both sides reject, checked here. Everything left out is listed with the reason.
 */
import { join } from 'node:path';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { cases } from '../../test/helpers/examples.ts';
import { loadMcpSessions, recordedChecks, revisionOf, type McpPackage } from '../../test/helpers/recordings.ts';
import { ROOT } from '../lib/proc.ts';
import { mutations } from './mutate.ts';

export interface CorpusItem {
  /** Where it comes from: `recording legacy_tour #3`, `example CallToolRequest/simple.json`, plus the mutation. */
  readonly source: string;
  /** The revision whose generated package validates it (generated/mcp-<revision>/). */
  readonly revision: string;
  /** Our validator: an export of generated/mcp-<revision>/validators, also the `$defs` name ajv compiles. */
  readonly def: string;
  /** The SDK v2's spec type: a key of `specTypeSchemas`, when it has one. */
  readonly sdk?: string;
  readonly data: unknown;
  /** What both sides must answer. */
  readonly expect: 'accept' | 'reject';
}

export interface Excluded {
  readonly source: string;
  readonly reason: string;
}

export interface Corpus {
  /** Ours and the SDK v2 both accept these: the accept corpus. */
  readonly accept: CorpusItem[];
  /** The accept corpus mutated into messages both reject: the reject corpus. */
  readonly reject: CorpusItem[];
  /** Everything our validators accept (the accept corpus and the ones the SDK has no schema for or rejects). */
  readonly ours: CorpusItem[];
  readonly excluded: Excluded[];
  /** Mutations left out because one side or both accepted them, by reason. */
  readonly mutationsDropped: Readonly<Record<string, number>>;
}

type StandardSchema = { '~standard': { validate(d: unknown): { issues?: unknown } | Promise<unknown> } };
const SDK = specTypeSchemas as unknown as Record<string, StandardSchema>;

/** Whether the SDK v2's schema `name` accepts `data` (its documented call: `specTypeSchemas.X['~standard'].validate`). */
export function sdkAccepts(name: string, data: unknown): boolean {
  const r = SDK[name]!['~standard'].validate(data);
  if (r instanceof Promise) throw new Error(`specTypeSchemas.${name} validates asynchronously`);
  return r.issues === undefined;
}

export const REVISIONS = ['2024-11-05', '2025-11-25', '2026-07-28'] as const;

/** The SDK v2 spec type of our `def` (the 2024-11-05 pin names the error response JSONRPCError). */
function sdkName(def: string): string | undefined {
  const name = def === 'JSONRPCError' ? 'JSONRPCErrorResponse' : def;
  return name in SDK ? name : undefined;
}

export async function buildCorpus(): Promise<Corpus> {
  const pkgs: Record<string, McpPackage> = {};
  for (const r of REVISIONS) pkgs[r] = (await import(join(ROOT, `generated/mcp-${r}/index.ts`))) as McpPackage;
  const candidates: { source: string; revision: string; def: string | undefined; data: unknown; why?: string }[] = [];

  for (const session of loadMcpSessions()) {
    const revision = revisionOf(session);
    const checks = new Map(recordedChecks(session, pkgs[revision]!).map((c) => [c.index, c]));
    session.messages.forEach((m, index) => {
      const source = `recording ${session.name} #${index}`;
      const c = checks.get(index);
      if (!m.json) return candidates.push({ source, revision, def: undefined, data: undefined, why: 'not JSON (a raw line)' });
      if (!c) return;
      if (c.handWritten)
        return candidates.push({ source, revision, def: undefined, data: c.data, why: 'a deliberately malformed client line of a raw session' });
      candidates.push({ source, revision, def: c.def, data: c.data });
    });
  }
  for (const { def, file, example } of cases)
    candidates.push({
      source: `example ${def}/${file}`,
      revision: '2026-07-28',
      def: pkgs['2026-07-28']!.validators[def] ? def : undefined,
      data: example,
    });

  const accept: CorpusItem[] = [];
  const ours: CorpusItem[] = [];
  const excluded: Excluded[] = [];
  for (const c of candidates) {
    if (c.why || !c.def) {
      excluded.push({ source: c.source, reason: c.why ?? 'no validator of ours for it' });
      continue;
    }
    const v = pkgs[c.revision]!.validators[c.def]!;
    if (!v(c.data)) {
      excluded.push({ source: c.source, reason: `our ${c.def} (${c.revision}) rejects it: ${JSON.stringify(v.errors).slice(0, 200)}` });
      continue;
    }
    const sdk = sdkName(c.def);
    const item: CorpusItem = { source: c.source, revision: c.revision, def: c.def, ...(sdk ? { sdk } : {}), data: c.data, expect: 'accept' };
    ours.push(item);
    if (!sdk) excluded.push({ source: c.source, reason: `ours only: the SDK v2 has no spec type ${c.def}` });
    else if (!sdkAccepts(sdk, c.data)) excluded.push({ source: c.source, reason: `ours only: the SDK v2's ${sdk} rejects it` });
    else accept.push(item);
  }

  const reject: CorpusItem[] = [];
  const dropped: Record<string, number> = {};
  for (const item of accept) {
    const v = pkgs[item.revision]!.validators[item.def]!;
    for (const m of mutations(item.data, (data) => {
      const oursOk = v(data);
      const sdkOk = sdkAccepts(item.sdk!, data);
      const why = oursOk && sdkOk ? 'both accept' : oursOk ? 'ours accepts' : sdkOk ? 'the SDK v2 accepts' : undefined;
      if (why) dropped[why] = (dropped[why] ?? 0) + 1;
      return why === undefined;
    }))
      reject.push({ ...item, source: `${item.source}, ${m.what}`, data: m.data, expect: 'reject' });
  }
  return { accept, reject, ours, excluded, mutationsDropped: dropped };
}
