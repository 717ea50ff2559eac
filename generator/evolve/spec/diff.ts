/**
 * @module evolve/spec/diff — what changed for a user's clients between two versions of their own spec (the
 * server.yaml or agent.yaml `wiregen generate --spec` reads), in the findings `wiregen diff` reports for pins.
 *
 * An MCP server spec: tools, resources, resource templates and prompts by their key (name, uri, uriTemplate),
 * each tool's inputSchema as what clients send (a new required argument breaks them) and its outputSchema as
 * what they receive (a property that may now be missing breaks them) (evolve/diff-schema.ts, flows `in` and
 * `out`), prompt arguments, the capabilities of both eras, and the wire choices (unknownTool, isErrorFalse…).
 * An A2A agent spec: its card's interfaces, capabilities, extensions, input and output modes, skills and
 * security requirements (https://a2a-protocol.org/latest/specification/, "Agent Card").
 * Descriptions, titles, annotations and examples are not compared: clients do not depend on them.
 */
import { escapePointerToken, unescapePointerToken } from '../../errors.ts';
import { isObject, type Json, type JsonObject, type SchemaBundle } from '../../load/schema.ts';
import type { Locator } from '../../load/validate-input.ts';
import { type Flow, SchemaDiff } from '../diff-schema.ts';
import { sortFindings, type Finding, type FindingClass } from '../findings.ts';

/** One version of a spec: its display name (`server.yaml@HEAD`), parsed content and locator. */
export interface SpecVersion {
  readonly file: string;
  readonly data: JsonObject;
  readonly locate: Locator;
}

/** Whether a spec is an agent's (it has a card) rather than an MCP server's. */
export const isAgentSpec = (data: JsonObject): boolean => isObject(data['card']);

/** Server spec options that change what goes on the wire (spec/server.schema.json). */
const WIRE_CHOICES = ['unknownTool', 'isErrorFalse', 'completionCounts', 'instructionsIn', 'supportedVersions', 'methodNotFound'];

class SpecDiff {
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
function get(data: Json, ptr: string): Json | undefined {
  let node: Json | undefined = data;
  for (const t of ptr.split('/').slice(1).map(unescapePointerToken))
    node = Array.isArray(node) ? node[Number(t)] : isObject(node) ? node[t] : undefined;
  return node;
}

function diffServer(d: SpecDiff): void {
  const { a, b } = d;
  for (const era of ['handshake', 'stateless'])
    d.flags(get(a.data, `/capabilities/${era}`), get(b.data, `/capabilities/${era}`), `/capabilities/${era}`, `capabilities.${era}`);
  for (const k of WIRE_CHOICES)
    if (JSON.stringify(a.data[k]) !== JSON.stringify(b.data[k]))
      d.push(
        'SERVER_SAME_CHOICE',
        'wire-breaking',
        'b',
        `/${k}`,
        k,
        `${k} ${JSON.stringify(a.data[k] ?? '(default)')} → ${JSON.stringify(b.data[k] ?? '(default)')}`,
      );
  d.items(
    '/tools',
    'name',
    (n, p) => d.push('TOOL_NO_DELETE', 'wire-breaking', 'a', p, `tool ${n}`, `tool ${n} removed`),
    (n, p) => d.push('TOOL_ADDED', 'compatible', 'b', p, `tool ${n}`, `tool ${n} added`),
    (x, y, pa, pb, n) => {
      d.schema(x['inputSchema'], y['inputSchema'], `${pa}/inputSchema`, `${pb}/inputSchema`, `tool ${n} input`, 'in');
      const [oa, ob] = [x['outputSchema'], y['outputSchema']];
      if (isObject(oa) && !isObject(ob))
        d.push('TOOL_OUTPUT_NO_DELETE', 'wire-breaking', 'a', `${pa}/outputSchema`, `tool ${n}`, `tool ${n} outputSchema removed`);
      else if (!isObject(oa) && isObject(ob))
        d.push('TOOL_OUTPUT_ADDED', 'compatible', 'b', `${pb}/outputSchema`, `tool ${n}`, `tool ${n} outputSchema added`);
      else d.schema(oa, ob, `${pa}/outputSchema`, `${pb}/outputSchema`, `tool ${n} output`, 'out');
      if ((x['output'] ?? 'wrapped') !== (y['output'] ?? 'wrapped'))
        d.push(
          'TOOL_SAME_OUTPUT',
          'wire-breaking',
          'b',
          `${pb}/output`,
          `tool ${n}`,
          `tool ${n} output ${String(x['output'] ?? 'wrapped')} → ${String(y['output'] ?? 'wrapped')}`,
        );
    },
  );
  for (const [path, key, what] of [
    ['/resources', 'uri', 'resource'],
    ['/resourceTemplates', 'uriTemplate', 'resource template'],
  ] as const) {
    const rule = what === 'resource' ? 'RESOURCE' : 'TEMPLATE';
    d.items(
      path,
      key,
      (n, p) => d.push(`${rule}_NO_DELETE`, 'wire-breaking', 'a', p, `${what} ${n}`, `${what} ${n} removed`),
      (n, p) => d.push(`${rule}_ADDED`, 'compatible', 'b', p, `${what} ${n}`, `${what} ${n} added`),
      (x, y, _pa, pb, n) => {
        if (x['mimeType'] !== y['mimeType'])
          d.push(
            `${rule}_SAME_MIME_TYPE`,
            'wire-breaking',
            'b',
            `${pb}/mimeType`,
            `${what} ${n}`,
            `${what} ${n} mimeType ${JSON.stringify(x['mimeType'] ?? null)} → ${JSON.stringify(y['mimeType'] ?? null)}`,
          );
      },
    );
  }
  d.items(
    '/prompts',
    'name',
    (n, p) => d.push('PROMPT_NO_DELETE', 'wire-breaking', 'a', p, `prompt ${n}`, `prompt ${n} removed`),
    (n, p) => d.push('PROMPT_ADDED', 'compatible', 'b', p, `prompt ${n}`, `prompt ${n} added`),
    (_x, _y, pa, pb, n) => {
      const required = (p: string) => {
        const arg = get(b.data, p);
        return isObject(arg) && arg['required'] === true;
      };
      d.items(
        [`${pa}/arguments`, `${pb}/arguments`],
        'name',
        (g, p) => d.push('PROMPT_ARGUMENT_NO_DELETE', 'wire-breaking', 'a', p, `prompt ${n}`, `prompt ${n} argument ${g} removed`),
        (g, p) =>
          required(p)
            ? d.push('PROMPT_ARGUMENT_ADDED_REQUIRED', 'wire-breaking', 'b', p, `prompt ${n}`, `prompt ${n} argument ${g} added, required`)
            : d.push('PROMPT_ARGUMENT_ADDED', 'compatible', 'b', p, `prompt ${n}`, `prompt ${n} argument ${g} added (optional)`),
        (x, y, _qa, qb, g) => {
          if ((x['required'] === true) !== (y['required'] === true))
            d.push(
              'PROMPT_ARGUMENT_SAME_REQUIRED',
              y['required'] === true ? 'wire-breaking' : 'compatible',
              'b',
              qb,
              `prompt ${n}`,
              `prompt ${n} argument ${g} became ${y['required'] === true ? 'required' : 'optional'}`,
            );
        },
      );
    },
  );
}

function diffAgent(d: SpecDiff): void {
  const card = '/card';
  d.items(
    `${card}/supportedInterfaces`,
    'protocolBinding',
    (n, p) => d.push('INTERFACE_NO_DELETE', 'wire-breaking', 'a', p, `interface ${n}`, `interface ${n} removed`),
    (n, p) => d.push('INTERFACE_ADDED', 'compatible', 'b', p, `interface ${n}`, `interface ${n} added`),
    (x, y, _pa, pb, n) => {
      for (const k of ['url', 'protocolVersion'])
        if (x[k] !== y[k])
          d.push(
            'INTERFACE_SAME',
            'wire-breaking',
            'b',
            `${pb}/${k}`,
            `interface ${n}`,
            `interface ${n} ${k} ${JSON.stringify(x[k])} → ${JSON.stringify(y[k])}`,
          );
    },
  );
  const caps = (v: SpecVersion) => {
    const c = get(v.data, `${card}/capabilities`);
    return isObject(c) ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'extensions')) : {};
  };
  d.flags(caps(d.a), caps(d.b), `${card}/capabilities`, 'capabilities');
  d.items(
    `${card}/capabilities/extensions`,
    'uri',
    (n, p) => d.push('EXTENSION_NO_DELETE', 'wire-breaking', 'a', p, `extension ${n}`, `extension ${n} removed`),
    (n, p) => {
      const ext = get(d.b.data, p);
      const required = isObject(ext) && ext['required'] === true;
      d.push(
        required ? 'EXTENSION_ADDED_REQUIRED' : 'EXTENSION_ADDED',
        required ? 'wire-breaking' : 'compatible',
        'b',
        p,
        `extension ${n}`,
        `extension ${n} added${required ? ', required' : ''}`,
      );
    },
    (x, y, _pa, pb, n) => {
      if ((x['required'] === true) !== (y['required'] === true))
        d.push(
          'EXTENSION_SAME_REQUIRED',
          y['required'] === true ? 'wire-breaking' : 'compatible',
          'b',
          `${pb}/required`,
          `extension ${n}`,
          `extension ${n} became ${y['required'] === true ? 'required' : 'optional'}`,
        );
    },
  );
  for (const k of ['defaultInputModes', 'defaultOutputModes'])
    d.modes(get(d.a.data, `${card}/${k}`), get(d.b.data, `${card}/${k}`), `${card}/${k}`, `${card}/${k}`, k);
  d.items(
    `${card}/skills`,
    'id',
    (n, p) => d.push('SKILL_NO_DELETE', 'wire-breaking', 'a', p, `skill ${n}`, `skill ${n} removed`),
    (n, p) => d.push('SKILL_ADDED', 'compatible', 'b', p, `skill ${n}`, `skill ${n} added`),
    (x, y, pa, pb, n) => {
      for (const k of ['inputModes', 'outputModes']) d.modes(x[k], y[k], `${pa}/${k}`, `${pb}/${k}`, `skill ${n} ${k}`);
    },
  );
  // Security requirements are alternatives (any one satisfies): none to some breaks every client without
  // credentials; an alternative removed breaks the clients that used it; one added is compatible.
  const alternatives = (v: SpecVersion) => {
    const r = get(v.data, `${card}/securityRequirements`);
    return Array.isArray(r) ? r.map((x) => JSON.stringify(x)) : [];
  };
  const [ra, rb] = [alternatives(d.a), alternatives(d.b)];
  const ptr = `${card}/securityRequirements`;
  if (!ra.length && rb.length)
    d.push('SECURITY_ADDED_REQUIRED', 'wire-breaking', 'b', ptr, 'securityRequirements', `requests now need credentials: ${rb.join(' or ')}`);
  else if (ra.length && !rb.length)
    d.push('SECURITY_NO_DELETE', 'compatible', 'a', ptr, 'securityRequirements', 'requests no longer need credentials');
  else {
    for (const r of ra)
      if (!rb.includes(r)) d.push('SECURITY_NO_DELETE', 'wire-breaking', 'a', ptr, 'securityRequirements', `security requirement ${r} removed`);
    for (const r of rb)
      if (!ra.includes(r)) d.push('SECURITY_ADDED', 'compatible', 'b', ptr, 'securityRequirements', `security requirement ${r} added`);
  }
  const schemes = (v: SpecVersion) => {
    const s = get(v.data, `${card}/securitySchemes`);
    return isObject(s) ? s : {};
  };
  const [sa, sb] = [schemes(d.a), schemes(d.b)];
  for (const name of Object.keys(sa))
    if (name in sb && JSON.stringify(withoutDescription(sa[name])) !== JSON.stringify(withoutDescription(sb[name])))
      d.push(
        'SECURITY_SCHEME_SAME',
        'wire-breaking',
        'b',
        `${card}/securitySchemes/${escapePointerToken(name)}`,
        `security scheme ${name}`,
        `security scheme ${name} changed`,
      );
}

/** A value without its `description` members (at any depth). */
function withoutDescription(v: Json | undefined): Json | undefined {
  if (Array.isArray(v)) return v.map((x) => withoutDescription(x) ?? null);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (k === 'description' ? [] : [[k, withoutDescription(x) ?? null]])));
}

/** Every change from spec version `a` to `b` (both servers or both agents), sorted: wire-breaking first. */
export function diffSpecs(a: SpecVersion, b: SpecVersion): Finding[] {
  const d = new SpecDiff(a, b);
  if (isAgentSpec(a.data) !== isAgentSpec(b.data))
    d.push(
      'SPEC_SAME_KIND',
      'wire-breaking',
      'b',
      '',
      'spec',
      `the spec is ${isAgentSpec(b.data) ? 'an A2A agent' : 'an MCP server'}, was ${isAgentSpec(a.data) ? 'an A2A agent' : 'an MCP server'}`,
    );
  else if (isAgentSpec(b.data)) diffAgent(d);
  else diffServer(d);
  return sortFindings(d.out);
}
