/**
 * @module evolve/spec/compare — the comparison of two versions of a user's spec (evolve/spec/diff.ts): the
 * versions, the findings they make (each located in the file it names), and the ways their parts are compared —
 * a list of named items, two schemas classed by the way their values travel, capability flags, media types.
 */
import { escapePointerToken, unescapePointerToken } from '../../errors.ts';
import { isObject, type Json, type JsonObject, type SchemaBundle } from '../../load/schema.ts';
import type { Locator } from '../../load/validate-input.ts';
import { type Flow, SchemaDiff } from '../diff-schema.ts';
import type { Finding, FindingClass } from '../findings.ts';

/** One version of a spec: its display name (`server.yaml@HEAD`), parsed content and locator. */
export interface SpecVersion {
  readonly file: string;
  readonly data: JsonObject;
  readonly locate: Locator;
}

/** Whether a spec is an agent's (it has a card) rather than an MCP server's. */
export const isAgentSpec = (data: JsonObject): boolean => isObject(data['card']);

/** The findings between two versions of one spec, and the ways their parts are compared. */
export class SpecDiff {
  readonly out: Finding[] = [];
  readonly a: SpecVersion;
  readonly b: SpecVersion;

  constructor(a: SpecVersion, b: SpecVersion) {
    this.a = a;
    this.b = b;
  }

  push(rule: string, cls: FindingClass, side: 'a' | 'b', pointer: string, subject: string, message: string): void {
    const v = side === 'a' ? this.a : this.b;
    const at = v.locate(pointer);
    this.out.push({ rule, class: cls, file: v.file, pointer, ...(at ? { line: at.line, column: at.column } : {}), subject, message });
  }

  /**
   * The items of list `path` (a JSON pointer; a pair when the list is at another place on each side) on both
   * sides, by `key`: `removed` and `added` report the ones on one side only, `both` compares the others (each
   * with its pointer on either side).
   */
  items(
    path: string | readonly [string, string],
    key: string,
    removed: (name: string, ptr: string) => void,
    added: (name: string, ptr: string) => void,
    both: (x: JsonObject, y: JsonObject, ptrA: string, ptrB: string, name: string) => void,
  ): void {
    const list = (v: SpecVersion, at: string) => {
      const found = new Map<string, [JsonObject, string]>();
      const items = get(v.data, at);
      if (Array.isArray(items))
        items.forEach((item, i) => {
          if (isObject(item) && typeof item[key] === 'string') found.set(item[key], [item, `${at}/${i}`]);
        });
      return found;
    };
    const [pathA, pathB] = typeof path === 'string' ? [path, path] : path;
    const la = list(this.a, pathA);
    const lb = list(this.b, pathB);
    for (const [name, [x, pa]] of la) {
      const other = lb.get(name);
      if (other) both(x, other[0], pa, other[1], name);
      else removed(name, pa);
    }
    for (const [name, [, pb]] of lb) if (!la.has(name)) added(name, pb);
  }

  /** Two schemas of one item, classed by the way their values travel. */
  schema(x: Json | undefined, y: Json | undefined, ptrA: string, ptrB: string, label: string, flow: Flow): void {
    if (!isObject(x) || !isObject(y)) return;
    const bundle = (v: SpecVersion, s: JsonObject, ptr: string): SchemaBundle => {
      const defs: Record<string, JsonObject> = {};
      const defSource: Record<string, string> = {};
      for (const k of ['definitions', '$defs'] as const) {
        const d = s[k];
        if (isObject(d))
          for (const [name, def] of Object.entries(d))
            if (isObject(def)) {
              defs[name] = def;
              defSource[name] = `${ptr}/${k}/${escapePointerToken(name)}`;
            }
      }
      return { file: v.file, draft: '2020-12', defsKey: '$defs', defs, defSource };
    };
    const ba = bundle(this.a, x, ptrA);
    const bb = bundle(this.b, y, ptrB);
    const shapes = new SchemaDiff(ba, bb, flow);
    shapes.schema(x, y, { ptrA, ptrB, label });
    // A $ref to a definition of the same name is compared under that name.
    for (const name of Object.keys(ba.defs))
      if (bb.defs[name])
        shapes.schema(ba.defs[name], bb.defs[name], { ptrA: ba.defSource[name]!, ptrB: bb.defSource[name]!, label: `${label} ${name}` });
    this.out.push(...shapes.out.map((f) => this.located(f)));
  }

  /** A schema finding with the line and column of its pointer. */
  located(f: Finding): Finding {
    const v = f.file === this.a.file ? this.a : this.b;
    const at = f.pointer === undefined ? undefined : v.locate(f.pointer);
    return at ? { ...f, line: at.line, column: at.column } : f;
  }

  /**
   * Flags and sections of two capability objects: one removed or turned off breaks the clients that use it,
   * one added is compatible, another value breaks.
   */
  flags(x: Json | undefined, y: Json | undefined, ptr: string, label: string): void {
    const ox = isObject(x) ? x : {};
    const oy = isObject(y) ? y : {};
    for (const k of new Set([...Object.keys(ox), ...Object.keys(oy)])) {
      const p = `${ptr}/${escapePointerToken(k)}`;
      const [u, v] = [ox[k], oy[k]];
      const on = (w: Json | undefined) => w !== undefined && w !== false && w !== null;
      if (on(u) && !on(v))
        this.push('CAPABILITY_NO_DELETE', 'wire-breaking', 'a', p, `${label}.${k}`, `${label}.${k} ${v === undefined ? 'removed' : 'turned off'}`);
      else if (!on(u) && on(v))
        this.push('CAPABILITY_ADDED', 'compatible', 'b', p, `${label}.${k}`, `${label}.${k} ${u === undefined ? 'added' : 'turned on'}`);
      else if (isObject(u) && isObject(v)) this.flags(u, v, p, `${label}.${k}`);
      else if (JSON.stringify(u) !== JSON.stringify(v))
        this.push('CAPABILITY_SAME', 'wire-breaking', 'b', p, `${label}.${k}`, `${label}.${k} ${JSON.stringify(u)} → ${JSON.stringify(v)}`);
    }
  }

  /** Two lists of media types: one removed breaks, one added is compatible. */
  modes(x: Json | undefined, y: Json | undefined, ptrA: string, ptrB: string, label: string): void {
    const ma = Array.isArray(x) ? x.map(String) : [];
    const mb = Array.isArray(y) ? y.map(String) : [];
    for (const m of ma) if (!mb.includes(m)) this.push('MODE_NO_DELETE', 'wire-breaking', 'a', ptrA, label, `${label}: ${m} removed`);
    for (const m of mb) if (!ma.includes(m)) this.push('MODE_ADDED', 'compatible', 'b', ptrB, label, `${label}: ${m} added`);
  }
}

/** The value at JSON pointer `ptr` of `data`. */
export function get(data: Json, ptr: string): Json | undefined {
  let node: Json | undefined = data;
  for (const t of ptr.split('/').slice(1).map(unescapePointerToken))
    node = Array.isArray(node) ? node[Number(t)] : isObject(node) ? node[t] : undefined;
  return node;
}

/** A value without its `description` members (at any depth). */
export function withoutDescription(v: Json | undefined): Json | undefined {
  if (Array.isArray(v)) return v.map((x) => withoutDescription(x) ?? null);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (k === 'description' ? [] : [[k, withoutDescription(x) ?? null]])));
}
