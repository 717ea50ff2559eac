/**
 * @module acts/format/errata — corrections the runner applies to the shipped suites where a test contradicts
 * the A2A specification it names (`spec_version` 1.0). The suite files stay as the A2A project published them;
 * each correction here names the test, the JSON pointer inside it, the value the suite has there, the value the
 * specification gives, and why. A correction whose test is absent or whose value differs (a newer suite that
 * fixed or changed it) is not applied and is reported as such, so a newer ACTS drops in unchanged. The report
 * lists, per test, the corrections it ran under; `--no-errata` runs the suites exactly as published.
 */
import { isDeepStrictEqual } from 'node:util';
import { unescapePointerToken } from '../../errors.ts';
import type { Suite, Test } from './model.ts';

export interface Erratum {
  /** A short name, shown in the report. */
  readonly id: string;
  readonly test: string;
  /** RFC 6901 pointer into the test as written (its `steps`, `assertions`, …). */
  readonly pointer: string;
  /** The suite's value there; the correction applies only while it is this. */
  readonly was: unknown;
  readonly now: unknown;
  /** Why, citing the specification. */
  readonly reason: string;
}

export const ERRATA: readonly Erratum[] = [
  {
    id: 'binding-name',
    test: 'CARD-DISC-002',
    pointer: '/steps/0/expect/body/supportedInterfaces/items/protocolBinding/one_of',
    was: ['JSONRPC', 'GRPC', 'REST'],
    now: ['JSONRPC', 'GRPC', 'HTTP+JSON'],
    reason:
      'A2A 1.0 names the HTTP binding HTTP+JSON in the card (a2a.proto AgentInterface.protocol_binding: "the core ones officially supported are JSONRPC, GRPC and HTTP+JSON"); REST is the suite\'s own name for that binding (ACTS §3.2 transport-binding)',
  },
  {
    id: 'message-id',
    test: 'CLIENT-PARSE-003',
    pointer: '/steps/0/client_response/wire_payload/result/history',
    was: [
      { role: 'ROLE_USER', parts: [{ text: 'original request' }] },
      { role: 'ROLE_AGENT', parts: [{ text: 'processing...' }] },
    ],
    now: [
      { messageId: 'msg-1', role: 'ROLE_USER', parts: [{ text: 'original request' }] },
      { messageId: 'msg-2', role: 'ROLE_AGENT', parts: [{ text: 'processing...' }] },
    ],
    reason:
      'the task\'s history holds messages without messageId, which A2A 1.0 requires of every message (a2a.proto Message.message_id is REQUIRED; ACTS §12.4: "The A2A specification requires every message to have a messageId"); the correction gives each one',
  },
];

/** What applying the errata did: the suites to run, and the corrections applied and not. */
export interface ErrataOutcome {
  readonly suites: Suite[];
  /** Test id → the ids of the corrections applied to it. */
  readonly applied: ReadonlyMap<string, readonly string[]>;
  /** Corrections whose test is in the suites but whose value is not the one they correct. */
  readonly stale: readonly Erratum[];
}

/** The container and key `pointer` names in `root`, or undefined when a step of it is missing. */
function locate(root: unknown, pointer: string): { parent: Record<string, unknown> | unknown[]; key: string } | undefined {
  const tokens = pointer.split('/').slice(1).map(unescapePointerToken);
  let node = root;
  for (const token of tokens.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  if (typeof node !== 'object' || node === null) return undefined;
  return { parent: node as Record<string, unknown>, key: tokens[tokens.length - 1]! };
}

/** `suites` with `errata` applied to copies of the tests they name. */
export function applyErrata(suites: readonly Suite[], errata: readonly Erratum[] = ERRATA): ErrataOutcome {
  const applied = new Map<string, string[]>();
  const stale: Erratum[] = [];
  const seen = new Set<Erratum>();
  const out = suites.map((suite) => ({
    ...suite,
    tests: suite.tests.map((test) => {
      const mine = errata.filter((e) => e.test === test.id);
      if (mine.length === 0) return test;
      const copy = structuredClone(test) as Test;
      for (const e of mine) {
        seen.add(e);
        const at = locate(copy, e.pointer);
        const current = at ? (at.parent as Record<string, unknown>)[at.key] : undefined;
        if (!at || !isDeepStrictEqual(current, e.was)) {
          stale.push(e);
          continue;
        }
        (at.parent as Record<string, unknown>)[at.key] = structuredClone(e.now);
        applied.set(test.id, [...(applied.get(test.id) ?? []), e.id]);
      }
      return copy;
    }),
  }));
  return { suites: out, applied, stale };
}
