/**
 * The accept-path validators (generated/<pin>/validators.fast.js, generator/emit/validators/accept-path.ts) accept and
 * reject exactly what the all-errors validators do, and the exported validators of validators.js leave
 * exactly the all-errors report on `.errors`.
 *
 * The reference is ajv compiling the pin's validation document at test time with the generator's all-errors
 * options and ajv's own class for the draft (Ajv2020 keeps its unevaluated-properties bookkeeping, which
 * the generator leaves out where no schema needs it): the validators validators.js held before it had an
 * accept path. For every pin, each
 * value of a pool (the 2026-07-28 examples, every recorded MCP and A2A message and every object or array in
 * one) is checked against every validator of the pin; then, for each validator that accepts a value, mutated
 * copies of the value (a property removed or added, a value replaced by one of another type, a union's tag
 * swapped for another tag seen in the pool, and the two mutations of test/generator/examples.test.ts) are
 * checked against that validator, which is where accepting and rejecting meet.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../generator/context.ts';
import { createAjv, validationDocument, validatorRefs } from '../../generator/emit/validators/ajv.ts';
import { loadAndCheck } from '../../generator/generate.ts';
import { cases, requiredPresent, wrongTypeMutation } from '../helpers/examples.ts';
import { ROOT } from '../helpers/project.ts';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

const { plans } = loadAndCheck(createContext({ log: () => {} }));

/** Every object and array in `value`, itself included, outermost first. */
function parts(value: unknown, out: unknown[] = []): unknown[] {
  if (typeof value !== 'object' || value === null) return out;
  out.push(value);
  for (const v of Array.isArray(value) ? value : Object.values(value)) parts(v, out);
  return out;
}

function recorded(file: string): unknown[] {
  const sessions = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/recordings', file), 'utf8')) as { messages: { json?: unknown }[] }[];
  return sessions.flatMap((s) => s.messages.flatMap((m) => (m.json === undefined ? [] : [m.json])));
}

/** The pool: distinct by their JSON text, in a fixed order. */
const POOL: unknown[] = (() => {
  const seen = new Map<string, unknown>();
  for (const root of [...cases.map((c) => c.example), ...recorded('mcp_sdk_exchanges.json'), ...recorded('a2a_sdk_exchanges.json')])
    for (const value of parts(root)) if (!seen.has(JSON.stringify(value))) seen.set(JSON.stringify(value), value);
  return [...seen.values()];
})();

/** Properties whose string values tell a union's branches apart; a mutation swaps one for another seen value. */
const TAGS = ['type', 'method', 'mode', 'action', 'role', 'resultType', 'kind'];
const TAG_VALUES = new Map<string, string[]>(
  TAGS.map((tag) => [tag, [...new Set(POOL.flatMap((v) => (!Array.isArray(v) && typeof (v as Record<string, unknown>)[tag] === 'string' ? [(v as Record<string, string>)[tag]!] : [])))].sort()]),
);
const REPLACEMENTS: unknown[] = [null, true, -1, 1.5, '', 'not a uri', [], {}];
/** Mutations are checked against validators that accept at most this share of the pool. */
const SPECIFIC = 0.05;
/** At most this many nodes of a value are mutated (the outermost first): enough to reach the content blocks. */
const MAX_NODES = 16;

/** Copies `root` with the node at `path` replaced by `make(node)`, or removed when `make` returns `REMOVE`. */
const REMOVE = Symbol('remove');
function edit(root: unknown, path: (string | number)[], make: (node: unknown) => unknown): unknown {
  if (path.length === 0) return make(root);
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    const next = edit(copy[head as number], rest, make);
    if (next === REMOVE) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  const copy = { ...(root as Record<string, unknown>) };
  const next = edit(copy[head as string], rest, make);
  if (next === REMOVE) delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

/** Paths to the nodes of `value`, outermost first (breadth-first), at most MAX_NODES. */
function nodePaths(value: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const queue: [unknown, (string | number)[]][] = [[value, []]];
  while (queue.length && out.length < MAX_NODES) {
    const [node, path] = queue.shift()!;
    out.push(path);
    if (Array.isArray(node)) node.forEach((v, i) => queue.push([v, [...path, i]]));
    else if (typeof node === 'object' && node !== null) for (const k of Object.keys(node).sort()) queue.push([(node as Record<string, unknown>)[k], [...path, k]]);
  }
  return out;
}

/** Mutated copies of `value`: each node replaced, removed, extended or (a tag) swapped. */
const mutationsOf = new Map<unknown, unknown[]>();
function mutations(value: unknown): unknown[] {
  if (mutationsOf.has(value)) return mutationsOf.get(value)!;
  const out: unknown[] = [];
  mutationsOf.set(value, out);
  for (const path of nodePaths(value)) {
    for (const r of REPLACEMENTS) out.push(edit(value, path, () => r));
    if (path.length) out.push(edit(value, path, () => REMOVE));
    const key = path.at(-1);
    out.push(
      edit(value, path, (node) => {
        if (Array.isArray(node)) return [...node, ...node];
        if (typeof node === 'object' && node !== null) return { ...node, unexpected: 1 };
        if (typeof node === 'string' && typeof key === 'string' && TAG_VALUES.has(key)) return REMOVE;
        return node;
      }),
    );
    if (typeof key === 'string' && TAG_VALUES.has(key)) for (const tag of TAG_VALUES.get(key)!) out.push(edit(value, path, () => tag));
  }
  return out;
}

interface Pin {
  exported: Record<string, Validate>;
  fast: Record<string, Validate>;
  reference: (name: string) => Validate;
  names: string[];
}

async function load(plan: (typeof plans)[number]): Promise<Pin> {
  const dir = join(ROOT, 'generated', plan.id);
  const exported = (await import(pathToFileURL(join(dir, 'validators.js')).href)) as Record<string, Validate>;
  const fast = (await import(pathToFileURL(join(dir, 'validators.fast.js')).href)) as Record<string, Validate>;
  // ajv's own class for the pin's draft (Ajv2020 with its unevaluated-properties bookkeeping), with the
  // generator's all-errors options: the generator compiles validators.js with a class that leaves it out.
  const ajv = createAjv(plan, false);
  ajv.addSchema(validationDocument(plan));
  const refs = validatorRefs(plan);
  const reference = (name: string) => ajv.getSchema(refs[name]!) as unknown as Validate;
  return { exported, fast, reference, names: plan.validators.map((v) => v.name) };
}

/**
 * Checks one value against one validator: the accept-path verdict must be the all-errors one; with
 * `exported`, the exported validator's verdict and `.errors` must be too. Returns the all-errors verdict and a
 * description of any disagreement.
 */
function check(pin: Pin, name: string, data: unknown, exported: boolean): { valid: boolean; problem?: string } {
  const reference = pin.reference(name);
  const valid = reference(data);
  const fast = pin.fast[name]!(data);
  const show = () => `${name}(${JSON.stringify(data).slice(0, 300)}): all-errors ${valid}, accept path ${fast}`;
  if (!exported) return fast === valid ? { valid } : { valid, problem: show() };
  const expectedErrors = JSON.stringify(reference.errors ?? null);
  const validator = pin.exported[name]!;
  const actual = validator(data);
  const actualErrors = JSON.stringify(validator.errors ?? null);
  if (fast === valid && actual === valid && actualErrors === expectedErrors) return { valid };
  return { valid, problem: `${show()}, exported ${actual}${actualErrors === expectedErrors ? '' : `, errors ${actualErrors.slice(0, 300)} instead of ${expectedErrors.slice(0, 300)}`}` };
}

describe.each(plans.map((p) => [p.id, p] as const))('%s: the accept path agrees with the all-errors validators', (_, plan) => {
  it('on every validator for every value of the pool, and on mutated copies of each value a validator accepts', async () => {
    const pin = await load(plan);
    expect(Object.keys(pin.fast).sort()).toEqual([...pin.names].sort());
    const problems: string[] = [];
    const accepts = new Map<string, unknown[]>(pin.names.map((n) => [n, []]));
    for (const value of POOL)
      for (const name of pin.names) {
        const { valid, problem } = check(pin, name, value, false);
        if (problem) problems.push(problem);
        if (valid) accepts.get(name)!.push(value);
      }
    // Mutations where they tell: a validator that accepts most objects (all its properties optional) accepts
    // most of their mutations too, and would only make this test slow.
    let mutated = 0;
    for (const [name, values] of accepts) {
      if (values.length > POOL.length * SPECIFIC) continue;
      for (const value of values)
        for (const copy of mutations(value)) {
          const { problem } = check(pin, name, copy, true);
          if (problem) problems.push(problem);
          mutated++;
        }
    }
    // The schema-aware mutations of examples.test.ts, for the examples' own definitions.
    for (const { def, example } of cases) {
      if (!pin.names.includes(def)) continue;
      const required = requiredPresent(def, example);
      const wrong = wrongTypeMutation(def, example);
      const copies = [
        ...(required.length ? [Object.fromEntries(Object.entries(example).filter(([k]) => k !== required[0]))] : []),
        ...(wrong ? [{ ...example, [wrong[0]]: wrong[1] }] : []),
      ];
      for (const copy of copies) {
        const { problem } = check(pin, def, copy, true);
        if (problem) problems.push(problem);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(mutated).toBeGreaterThan(5_000);
  });
});
