/**
 * @module evolve/diff-schema — the changes between two pins' schema bundles, definition by definition:
 * definitions added and removed; in each (and in the inline schemas it holds: properties, items,
 * additionalProperties, anyOf/oneOf/allOf members), properties added and removed, required-ness, JSON types,
 * enums and consts, `additionalProperties`, formats and the other value constraints. A `$ref` is compared by
 * the name it points at; the definition itself is compared once, under its own name. Descriptions, titles
 * and defaults are not compared.
 *
 * Between two pins a change is classed as the protocol's messages go both ways (`flow` both). A schema one side
 * only sends — a tool's inputSchema the client fills, its outputSchema the server fills (`wiregen diff` of a
 * user's spec) — is classed by direction: each change narrows the values the schema allows (a new required
 * property, a constraint added), widens them (a property now optional, an enum value added), or changes them
 * (another type, another pattern); for what the client sends (`in`) a narrowing breaks the client, for what it
 * receives (`out`) a widening does. A property removed breaks either way (it is ignored or refused when sent,
 * missing when read), and so does one renamed: the sole property removed and the sole one added, alike
 * (evolve/rename.ts), are one PROPERTY_RENAMED finding instead of two.
 */
import { escapePointerToken } from '../errors.ts';
import { deref, isObject, refName, type Json, type JsonObject, type SchemaBundle } from '../load/schema.ts';
import type { Finding, FindingClass } from './findings.ts';
import { canonical, soleRename } from './rename.ts';

/** Which way the values of the compared schemas travel (see the module doc). */
export type Flow = 'both' | 'in' | 'out';

/** What a change does to the set of values a schema allows. */
type Change = 'narrows' | 'widens' | 'changes' | 'neutral';

/** Whether each of `a` is in `b`. */
const within = (a: readonly string[], b: readonly string[]) => a.every((x) => b.includes(x));

/** What a keyword's value change does: a minimum raised narrows, a maximum raised widens; anything else changes. */
function bound(k: string, x: Json | undefined, y: Json | undefined): Change {
  if (x === undefined) return 'narrows';
  if (y === undefined) return 'widens';
  if (typeof x !== 'number' || typeof y !== 'number') return 'changes';
  if (/^(min|exclusiveMin)/.test(k)) return y > x ? 'narrows' : 'widens';
  if (/^(max|exclusiveMax)/.test(k)) return y < x ? 'narrows' : 'widens';
  return 'changes';
}

/** Where the compared schemas are: a JSON pointer into each file, and a readable path (`Tool.outputSchema`). */
export interface At {
  readonly ptrA: string;
  readonly ptrB: string;
  readonly label: string;
}

const CONSTRAINTS = [
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
] as const;

const show = (v: Json | undefined) => (v === undefined ? '(none)' : JSON.stringify(v));
const same = (x: Json | undefined, y: Json | undefined) => JSON.stringify(x) === JSON.stringify(y);

function typesOf(s: JsonObject): string[] | undefined {
  const t = s['type'];
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.map(String).sort() : undefined;
}

/** What a change of JSON types does: fewer types narrow, more widen (no `type`: any). */
function typeChange(ta: readonly string[] | undefined, tb: readonly string[] | undefined): Change {
  if (ta === undefined) return 'narrows';
  if (tb === undefined) return 'widens';
  return within(tb, ta) ? 'narrows' : within(ta, tb) ? 'widens' : 'changes';
}

function closed(s: JsonObject): boolean {
  return s['additionalProperties'] === false || s['unevaluatedProperties'] === false;
}

/** How a finding names member `name` of the object at `at`: `tool add input.title`, `x["a-b"]`. */
function memberLabel(at: At, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${at.label}.${name}` : `${at.label}[${JSON.stringify(name)}]`;
}

export class SchemaDiff {
  readonly out: Finding[] = [];
  /** Pairs of definitions already compared by shape (a `$ref` that changed target), against recursion. */
  private readonly seen = new Set<string>();

  readonly a: SchemaBundle;
  readonly b: SchemaBundle;
  readonly flow: Flow;

  constructor(a: SchemaBundle, b: SchemaBundle, flow: Flow = 'both') {
    this.a = a;
    this.b = b;
    this.flow = flow;
  }

  /** `cls` between pins (flow both); else the class of `change` for values that travel one way. */
  private push(rule: string, cls: FindingClass, change: Change, side: 'a' | 'b', at: At, message: string, subject = at.label): void {
    const breaks = change === 'changes' || (this.flow === 'in' ? change === 'narrows' : change === 'widens');
    const judged: FindingClass = this.flow === 'both' ? cls : breaks ? 'wire-breaking' : 'compatible';
    this.out.push({
      rule,
      class: judged,
      file: side === 'a' ? this.a.file : this.b.file,
      pointer: side === 'a' ? at.ptrA : at.ptrB,
      subject,
      message,
    });
  }

  /** Every definition of both bundles. */
  definitions(): this {
    const { a, b } = this;
    const where = (bundle: SchemaBundle, name: string) => bundle.defSource[name] ?? `/${bundle.defsKey}/${escapePointerToken(name)}`;
    for (const name of Object.keys(a.defs).sort()) {
      const at: At = { ptrA: where(a, name), ptrB: where(b, name), label: name };
      if (!(name in b.defs)) this.push('DEF_NO_DELETE', 'source-breaking', 'neutral', 'a', at, `definition ${name} removed`);
      else this.schema(a.defs[name], b.defs[name], at);
    }
    for (const name of Object.keys(b.defs).sort())
      if (!(name in a.defs))
        this.push('DEF_ADDED', 'compatible', 'neutral', 'b', { ptrA: '', ptrB: where(b, name), label: name }, `definition ${name} added`);
    return this;
  }

  /** Compares two schemas found at `at` (the entry point for params and results too). */
  schema(x: Json | undefined, y: Json | undefined, at: At): void {
    if (!isObject(x) || !isObject(y)) return;
    const ra = refName(x);
    const rb = refName(y);
    let sa: JsonObject | undefined = x;
    let sb: JsonObject | undefined = y;
    if (ra !== undefined || rb !== undefined) {
      if (ra === rb) return; // the definition is compared under its own name
      this.push(
        'SCHEMA_SAME_REF',
        'source-breaking',
        'neutral',
        'b',
        at,
        `${at.label} is ${rb ?? 'an inline schema'}, was ${ra ?? 'an inline schema'}`,
      );
      const key = `${ra ?? at.ptrA}|${rb ?? at.ptrB}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
      sa = deref(this.a, x);
      sb = deref(this.b, y);
      if (!sa || !sb) return;
    }
    this.keywords(sa, sb, at);
    this.properties(sa, sb, at);
    this.children(sa, sb, at);
  }

  private keywords(sa: JsonObject, sb: JsonObject, at: At): void {
    const ta = typesOf(sa);
    const tb = typesOf(sb);
    if (!same(ta, tb))
      this.push(
        'SCHEMA_SAME_TYPE',
        'wire-breaking',
        typeChange(ta, tb),
        'b',
        at,
        `${at.label} type ${ta?.join('|') ?? '(any)'} → ${tb?.join('|') ?? '(any)'}`,
      );
    if (('const' in sa || 'const' in sb) && !same(sa['const'], sb['const']))
      this.push(
        'SCHEMA_SAME_CONST',
        'wire-breaking',
        bound('const', sa['const'], sb['const']),
        'b',
        at,
        `${at.label} const ${show(sa['const'])} → ${show(sb['const'])}`,
      );
    const ea = sa['enum'];
    const eb = sb['enum'];
    if (Array.isArray(ea) && Array.isArray(eb)) {
      const va = new Set(ea.map((v) => JSON.stringify(v)));
      const vb = new Set(eb.map((v) => JSON.stringify(v)));
      for (const v of va)
        if (!vb.has(v)) this.push('ENUM_VALUE_NO_DELETE', 'wire-breaking', 'narrows', 'a', at, `${at.label} enum value ${v} removed`);
      for (const v of vb) if (!va.has(v)) this.push('ENUM_VALUE_ADDED', 'compatible', 'widens', 'b', at, `${at.label} enum value ${v} added`);
    } else if (Array.isArray(ea) !== Array.isArray(eb))
      this.push(
        'CONSTRAINT_SAME',
        Array.isArray(eb) ? 'wire-breaking' : 'compatible',
        Array.isArray(eb) ? 'narrows' : 'widens',
        'b',
        at,
        `${at.label} enum ${Array.isArray(eb) ? `added: ${show(eb)}` : `removed (was ${show(ea)})`}`,
      );
    if (!same(sa['format'], sb['format']))
      this.push(
        'FORMAT_SAME',
        sb['format'] === undefined ? 'compatible' : 'wire-breaking',
        bound('format', sa['format'], sb['format']),
        'b',
        at,
        `${at.label} format ${show(sa['format'])} → ${show(sb['format'])}`,
      );
    for (const k of CONSTRAINTS)
      if (!same(sa[k], sb[k]))
        this.push(
          'CONSTRAINT_SAME',
          sb[k] === undefined ? 'compatible' : 'wire-breaking',
          bound(k, sa[k], sb[k]),
          'b',
          at,
          `${at.label} ${k} ${show(sa[k])} → ${show(sb[k])}`,
        );
    if (!closed(sa) && closed(sb))
      this.push('ADDITIONAL_PROPERTIES_CLOSED', 'wire-breaking', 'narrows', 'b', at, `${at.label} no longer allows unknown properties`);
    else if (closed(sa) && !closed(sb))
      this.push('ADDITIONAL_PROPERTIES_OPENED', 'compatible', 'widens', 'b', at, `${at.label} now allows unknown properties`);
  }

  private properties(sa: JsonObject, sb: JsonObject, at: At): void {
    const pa = isObject(sa['properties']) ? sa['properties'] : {};
    const pb = isObject(sb['properties']) ? sb['properties'] : {};
    const reqA = new Set(Array.isArray(sa['required']) ? sa['required'].map(String) : []);
    const reqB = new Set(Array.isArray(sb['required']) ? sb['required'].map(String) : []);
    const sub = (name: string): At => {
      const t = `/properties/${escapePointerToken(name)}`;
      return {
        ptrA: at.ptrA + t,
        ptrB: at.ptrB + t,
        label: memberLabel(at, name),
      };
    };
    const renamed = this.flow === 'both' ? undefined : this.rename(pa, pb, reqA, reqB);
    if (renamed) {
      const [from, to] = renamed;
      const required = reqB.has(to);
      // Clients of the old name break either way: what they send under it is refused (a required argument is
      // missing) or no longer read; what they read under it is never there.
      const what =
        this.flow === 'in'
          ? `clients that send \`${from}\` ${required ? `are refused (\`${to}\` is required)` : 'have it ignored'}`
          : `clients that read \`${from}\` no longer find it`;
      this.push('PROPERTY_RENAMED', 'wire-breaking', 'changes', 'b', sub(to), `${at.label}: renamed \`${from}\` → \`${to}\`: ${what}`);
    }
    for (const name of Object.keys(pa)) {
      const here = sub(name);
      if (renamed?.[0] === name) continue;
      if (!(name in pb)) {
        const wire = closed(sb);
        // One way, a property removed breaks its side whatever the object: what a client sends under it is
        // refused (a closed object) or no longer read, and what it reads under it is never there.
        const why =
          this.flow === 'both'
            ? wire
              ? ' (the object allows no unknown properties)'
              : ''
            : this.flow === 'in'
              ? `: clients that send it ${wire ? 'are refused (the object allows no unknown properties)' : 'have it ignored'}`
              : ': clients that read it no longer find it';
        this.push('PROPERTY_NO_DELETE', wire ? 'wire-breaking' : 'source-breaking', 'changes', 'a', here, `${here.label} removed${why}`);
        continue;
      }
      if (reqA.has(name) !== reqB.has(name))
        this.push(
          'PROPERTY_SAME_REQUIRED',
          'wire-breaking',
          reqB.has(name) ? 'narrows' : 'widens',
          'b',
          here,
          `${here.label} became ${reqB.has(name) ? 'required' : 'optional'}`,
        );
      this.schema(pa[name], pb[name], here);
    }
    for (const name of Object.keys(pb)) {
      if (name in pa || renamed?.[1] === name) continue;
      const here = sub(name);
      if (reqB.has(name)) this.push('PROPERTY_ADDED_REQUIRED', 'wire-breaking', 'narrows', 'b', here, `${here.label} added, required`);
      else this.push('PROPERTY_ADDED', 'compatible', closed(sa) ? 'widens' : 'neutral', 'b', here, `${here.label} added (optional)`);
    }
    // A name `required` lists without a property schema of its own (JSON Schema allows it: the member must be
    // present, whatever its value) changes the object as much as one with a schema does.
    for (const name of new Set([...reqA, ...reqB])) {
      if (name in pa || name in pb || reqA.has(name) === reqB.has(name)) continue;
      const label = memberLabel(at, name);
      const req: At = { ptrA: `${at.ptrA}/required`, ptrB: `${at.ptrB}/required`, label };
      this.push(
        'PROPERTY_SAME_REQUIRED',
        'wire-breaking',
        reqB.has(name) ? 'narrows' : 'widens',
        'b',
        req,
        `${label} became ${reqB.has(name) ? 'required' : 'optional'}`,
      );
    }
  }

  /** The sole property removed and the sole one added, when they have one schema and one required-ness. */
  private rename(pa: JsonObject, pb: JsonObject, reqA: Set<string>, reqB: Set<string>): [string, string] | undefined {
    const gone = Object.keys(pa).filter((n) => !(n in pb));
    const come = Object.keys(pb).filter((n) => !(n in pa));
    return soleRename(gone, come, (x, y) => reqA.has(x) === reqB.has(y) && canonical(pa[x]) === canonical(pb[y]));
  }

  private children(sa: JsonObject, sb: JsonObject, at: At): void {
    const into = (token: string, label: string): At => ({ ptrA: `${at.ptrA}/${token}`, ptrB: `${at.ptrB}/${token}`, label });
    if (isObject(sa['items']) && isObject(sb['items'])) this.schema(sa['items'], sb['items'], into('items', `${at.label}[]`));
    if (isObject(sa['additionalProperties']) && isObject(sb['additionalProperties']))
      this.schema(sa['additionalProperties'], sb['additionalProperties'], into('additionalProperties', `${at.label}{}`));
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const xa = sa[key];
      const xb = sb[key];
      if (!Array.isArray(xa) && !Array.isArray(xb)) continue;
      if (!Array.isArray(xa) || !Array.isArray(xb)) {
        this.push('SCHEMA_SAME_TYPE', 'wire-breaking', 'changes', 'b', at, `${at.label} ${Array.isArray(xb) ? 'became' : 'is no longer'} an ${key}`);
        continue;
      }
      const refs = (list: Json[]) => new Set(list.map(refName).filter((n) => n !== undefined));
      const na = refs(xa);
      const nb = refs(xb);
      if (key !== 'allOf') {
        for (const n of na)
          if (!nb.has(n)) this.push('UNION_MEMBER_NO_DELETE', 'wire-breaking', 'narrows', 'a', at, `${at.label} ${key} member ${n} removed`);
        for (const n of nb) if (!na.has(n)) this.push('UNION_MEMBER_ADDED', 'compatible', 'widens', 'b', at, `${at.label} ${key} member ${n} added`);
      }
      const inline = (list: Json[]) => list.map((s, i) => [s, i] as const).filter(([s]) => refName(s) === undefined);
      const ia = inline(xa);
      const ib = inline(xb);
      if (ia.length === ib.length)
        ia.forEach(([s, i], k) => {
          const [t, j] = ib[k]!;
          this.schema(s, t, { ptrA: `${at.ptrA}/${key}/${i}`, ptrB: `${at.ptrB}/${key}/${j}`, label: `${at.label}|${k}` });
        });
      else
        this.push(
          ia.length > ib.length ? 'UNION_MEMBER_NO_DELETE' : 'UNION_MEMBER_ADDED',
          ia.length > ib.length ? 'wire-breaking' : 'compatible',
          ia.length > ib.length ? 'narrows' : 'widens',
          'b',
          at,
          `${at.label} ${key} has ${ib.length} inline member(s), had ${ia.length}`,
        );
    }
  }
}
