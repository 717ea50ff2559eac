/**
 * @module evolve/diff-schema — the changes between two pins' schema bundles, definition by definition:
 * definitions added and removed; in each (and in the inline schemas it holds: properties, items,
 * additionalProperties, anyOf/oneOf/allOf members), properties added and removed, required-ness, JSON types,
 * enums and consts, `additionalProperties`, formats and the other value constraints. A `$ref` is compared by
 * the name it points at; the definition itself is compared once, under its own name. Descriptions, titles
 * and defaults are not compared.
 */
import { escapePointerToken } from '../errors.ts';
import { deref, isObject, refName, type Json, type JsonObject, type SchemaBundle } from '../load/schema.ts';
import type { Finding, FindingClass } from './findings.ts';

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

function closed(s: JsonObject): boolean {
  return s['additionalProperties'] === false || s['unevaluatedProperties'] === false;
}

/** Compares two schema bundles' definitions. */
export class SchemaDiff {
  readonly out: Finding[] = [];
  /** Pairs of definitions already compared by shape (a `$ref` that changed target), against recursion. */
  private readonly seen = new Set<string>();

  readonly a: SchemaBundle;
  readonly b: SchemaBundle;

  constructor(a: SchemaBundle, b: SchemaBundle) {
    this.a = a;
    this.b = b;
  }

  private push(rule: string, cls: FindingClass, side: 'a' | 'b', at: At, message: string, subject = at.label): void {
    this.out.push({ rule, class: cls, file: side === 'a' ? this.a.file : this.b.file, pointer: side === 'a' ? at.ptrA : at.ptrB, subject, message });
  }

  /** Every definition of both bundles. */
  definitions(): this {
    const { a, b } = this;
    const where = (bundle: SchemaBundle, name: string) => bundle.defSource[name] ?? `/${bundle.defsKey}/${escapePointerToken(name)}`;
    for (const name of Object.keys(a.defs).sort()) {
      const at: At = { ptrA: where(a, name), ptrB: where(b, name), label: name };
      if (!(name in b.defs)) this.push('DEF_NO_DELETE', 'source-breaking', 'a', at, `definition ${name} removed`);
      else this.schema(a.defs[name], b.defs[name], at);
    }
    for (const name of Object.keys(b.defs).sort())
      if (!(name in a.defs)) this.push('DEF_ADDED', 'compatible', 'b', { ptrA: '', ptrB: where(b, name), label: name }, `definition ${name} added`);
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
      this.push('SCHEMA_SAME_REF', 'source-breaking', 'b', at, `${at.label} is ${rb ?? 'an inline schema'}, was ${ra ?? 'an inline schema'}`);
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
      this.push('SCHEMA_SAME_TYPE', 'wire-breaking', 'b', at, `${at.label} type ${ta?.join('|') ?? '(any)'} → ${tb?.join('|') ?? '(any)'}`);
    if (('const' in sa || 'const' in sb) && !same(sa['const'], sb['const']))
      this.push('SCHEMA_SAME_CONST', 'wire-breaking', 'b', at, `${at.label} const ${show(sa['const'])} → ${show(sb['const'])}`);
    const ea = sa['enum'];
    const eb = sb['enum'];
    if (Array.isArray(ea) && Array.isArray(eb)) {
      const va = new Set(ea.map((v) => JSON.stringify(v)));
      const vb = new Set(eb.map((v) => JSON.stringify(v)));
      for (const v of va) if (!vb.has(v)) this.push('ENUM_VALUE_NO_DELETE', 'wire-breaking', 'a', at, `${at.label} enum value ${v} removed`);
      for (const v of vb) if (!va.has(v)) this.push('ENUM_VALUE_ADDED', 'compatible', 'b', at, `${at.label} enum value ${v} added`);
    } else if (Array.isArray(ea) !== Array.isArray(eb))
      this.push(
        'CONSTRAINT_SAME',
        Array.isArray(eb) ? 'wire-breaking' : 'compatible',
        'b',
        at,
        `${at.label} enum ${Array.isArray(eb) ? `added: ${show(eb)}` : `removed (was ${show(ea)})`}`,
      );
    if (!same(sa['format'], sb['format']))
      this.push(
        'FORMAT_SAME',
        sb['format'] === undefined ? 'compatible' : 'wire-breaking',
        'b',
        at,
        `${at.label} format ${show(sa['format'])} → ${show(sb['format'])}`,
      );
    for (const k of CONSTRAINTS)
      if (!same(sa[k], sb[k]))
        this.push(
          'CONSTRAINT_SAME',
          sb[k] === undefined ? 'compatible' : 'wire-breaking',
          'b',
          at,
          `${at.label} ${k} ${show(sa[k])} → ${show(sb[k])}`,
        );
    if (!closed(sa) && closed(sb))
      this.push('ADDITIONAL_PROPERTIES_CLOSED', 'wire-breaking', 'b', at, `${at.label} no longer allows unknown properties`);
    else if (closed(sa) && !closed(sb)) this.push('ADDITIONAL_PROPERTIES_OPENED', 'compatible', 'b', at, `${at.label} now allows unknown properties`);
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
        label: /^[A-Za-z_$][\w$]*$/.test(name) ? `${at.label}.${name}` : `${at.label}[${JSON.stringify(name)}]`,
      };
    };
    for (const name of Object.keys(pa)) {
      const here = sub(name);
      if (!(name in pb)) {
        const wire = closed(sb);
        this.push(
          'PROPERTY_NO_DELETE',
          wire ? 'wire-breaking' : 'source-breaking',
          'a',
          here,
          `${here.label} removed${wire ? ' (the object allows no unknown properties)' : ''}`,
        );
        continue;
      }
      if (reqA.has(name) !== reqB.has(name))
        this.push('PROPERTY_SAME_REQUIRED', 'wire-breaking', 'b', here, `${here.label} became ${reqB.has(name) ? 'required' : 'optional'}`);
      this.schema(pa[name], pb[name], here);
    }
    for (const name of Object.keys(pb)) {
      if (name in pa) continue;
      const here = sub(name);
      if (reqB.has(name)) this.push('PROPERTY_ADDED_REQUIRED', 'wire-breaking', 'b', here, `${here.label} added, required`);
      else this.push('PROPERTY_ADDED', 'compatible', 'b', here, `${here.label} added (optional)`);
    }
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
        this.push('SCHEMA_SAME_TYPE', 'wire-breaking', 'b', at, `${at.label} ${Array.isArray(xb) ? 'became' : 'is no longer'} an ${key}`);
        continue;
      }
      const refs = (list: Json[]) => new Set(list.map(refName).filter((n) => n !== undefined));
      const na = refs(xa);
      const nb = refs(xb);
      if (key !== 'allOf') {
        for (const n of na) if (!nb.has(n)) this.push('UNION_MEMBER_NO_DELETE', 'wire-breaking', 'a', at, `${at.label} ${key} member ${n} removed`);
        for (const n of nb) if (!na.has(n)) this.push('UNION_MEMBER_ADDED', 'compatible', 'b', at, `${at.label} ${key} member ${n} added`);
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
          'b',
          at,
          `${at.label} ${key} has ${ib.length} inline member(s), had ${ia.length}`,
        );
    }
  }
}
