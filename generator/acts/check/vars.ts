/**
 * @module acts/check/vars — `{{…}}` interpolation (§8.1) in the order §12.2 gives: a prior step's capture
 * (`{{stepId.name}}`, and `{{stepId.response}}` for the step's whole response, as the shipped suites' collection
 * assertions use it), then variables (the runner's and `--var`'s, above the document's `variables`, which
 * §2 calls defaults), then `{{env.NAME}}`, then `{{$uuid}}`. A string that is one reference alone takes the
 * referenced value as it is (an object stays an object); inside a longer string it is written as text.
 * A reference nothing resolves fails the step (§12.2).
 */

export class UnresolvedVariableError extends Error {
  constructor(expression: string, why: string) {
    super(`cannot resolve {{${expression}}}: ${why} (§12.2)`);
    this.name = 'UnresolvedVariableError';
  }
}

/** What references resolve against, for one test. */
export interface Scope {
  /** Values captured so far, by step id, with `response` the step's assertion root. */
  readonly steps: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The runner's variables (SUT_BASE_URL, webhookUrl, --var), above the document's. */
  readonly runner: Readonly<Record<string, string>>;
  /** The document's `variables`. */
  readonly document: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const REF = /\{\{\s*([^{}]+?)\s*\}\}/g;

function resolveOne(expr: string, scope: Scope, depth: number): unknown {
  const dot = expr.indexOf('.');
  if (dot > 0) {
    const head = expr.slice(0, dot);
    const name = expr.slice(dot + 1);
    const step = scope.steps.get(head);
    if (step && Object.hasOwn(step, name)) return step[name];
    if (head === 'env') {
      const v = scope.env[name];
      if (v === undefined) throw new UnresolvedVariableError(expr, `environment variable ${name} is not set`);
      return v;
    }
    if (step) throw new UnresolvedVariableError(expr, `step ${head} captured no ${name}`);
  }
  if (expr === '$uuid') return crypto.randomUUID();
  for (const table of [scope.runner, scope.document])
    if (Object.hasOwn(table, expr)) {
      // A variable may itself refer to others (suite.acts.yaml: baseUrl: "{{SUT_BASE_URL}}").
      if (depth > 8) throw new UnresolvedVariableError(expr, 'variables refer to each other in a loop');
      return interpolateWith(table[expr], scope, depth + 1);
    }
  const env = scope.env[expr];
  if (env !== undefined) return env;
  throw new UnresolvedVariableError(
    expr,
    dot > 0 ? `no step ${expr.slice(0, dot)} ran before, and no variable is named ${expr}` : `no variable ${expr} (give it with --var ${expr}=…)`,
  );
}

function interpolateWith(value: unknown, scope: Scope, depth: number): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*([^{}]+?)\s*\}\}$/.exec(value);
    if (whole) return resolveOne(whole[1]!, scope, depth);
    return value.replace(REF, (_, expr: string) => {
      const v = resolveOne(expr, scope, depth);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) return value.map((v) => interpolateWith(v, scope, depth));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateWith(v, scope, depth)]));
  return value;
}

/** `value` with every reference replaced (deeply); throws UnresolvedVariableError. */
export function interpolate(value: unknown, scope: Scope): unknown {
  return interpolateWith(value, scope, 0);
}
