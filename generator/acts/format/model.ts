/**
 * @module acts/format/model — the ACTS document as the runner reads it
 * (generator/acts/suites/acts-specification.md §2-§10, Appendix A): suites, tests, the four kinds of step and
 * what they expect. Assertion values stay plain data (`unknown`); check/match.ts gives them their meaning.
 */

/** A transport binding as ACTS names it (§3.2 `transport-binding`). */
export type ActsBinding = 'jsonrpc' | 'grpc' | 'rest';
export type Level = 'must' | 'should' | 'may';

/** A named assertion (§5.5): at a step's end or the test's. */
export interface NamedAssertion {
  readonly id?: string;
  readonly source: string;
  readonly path?: string;
  readonly match?: unknown;
  readonly any?: CollectionMatch;
  readonly all?: CollectionMatch;
  readonly none?: CollectionMatch;
}

export interface CollectionMatch {
  readonly path: string;
  readonly match: Readonly<Record<string, unknown>>;
}

export interface RepeatConfig {
  readonly until: string;
  readonly max_attempts?: number;
  readonly delay_ms?: number;
  readonly backoff?: 'none' | 'linear' | 'exponential';
}

/** §6.2, with `code` (the shipped suites' name for `error_type`) and `data` (theirs for `details`). */
export interface ExpectError {
  readonly error_type?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly details?: unknown;
  readonly data?: unknown;
}

/** §7. */
export interface ExpectStream {
  readonly min_count?: number;
  readonly max_count?: number;
  readonly timeout_ms?: number;
  readonly ordering?: 'monotonic_state';
  readonly events?: readonly Readonly<Record<string, unknown>>[];
  readonly final_event?: unknown;
  readonly each_event?: unknown;
}

export interface RawRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly body_raw?: string;
}

/** What every kind of step may carry besides its action (§4). */
interface StepBase {
  readonly id: string;
  readonly description?: string;
  readonly expect?: Readonly<Record<string, unknown>>;
  readonly expect_error?: ExpectError;
  readonly expect_stream?: ExpectStream;
  readonly capture?: Readonly<Record<string, string>>;
  readonly assertions?: readonly NamedAssertion[];
  readonly repeat?: RepeatConfig;
  readonly delay_ms?: number;
}

export interface ServerStep extends StepBase {
  readonly kind: 'server';
  readonly operation: string;
  readonly params: Readonly<Record<string, unknown>>;
}
export interface RawStep extends StepBase {
  readonly kind: 'raw';
  readonly raw: RawRequest;
}
export interface ClientStep extends StepBase {
  readonly kind: 'client';
  readonly client_response: { readonly operation: string; readonly wire_payload: unknown };
  readonly expect_parsed: Readonly<Record<string, unknown>>;
}
export interface AssertionStep extends StepBase {
  readonly kind: 'assertion';
  readonly assertion: NamedAssertion;
}
export type Step = ServerStep | RawStep | ClientStep | AssertionStep;

export interface Preconditions {
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly skills?: readonly { readonly id: string }[];
  readonly transport?: readonly ActsBinding[];
  readonly extensions?: readonly string[];
  readonly description?: string;
}

export interface Test {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly level: Level;
  readonly tags?: readonly string[];
  readonly transport?: readonly ActsBinding[];
  readonly preconditions?: Preconditions;
  readonly requires_behaviors?: readonly string[];
  readonly runner_requirements?: readonly string[];
  readonly steps: readonly Step[];
  readonly assertions?: readonly NamedAssertion[];
}

export interface Suite {
  readonly id: string;
  readonly name: string;
  readonly tests: readonly Test[];
  /** The file the suite came from, and its document's `variables` and `spec_version` (§2). */
  readonly file: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly specVersion: string;
  readonly actsVersion: string;
}
