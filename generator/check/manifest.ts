/**
 * @module check/manifest — cross-checks a pin's manifest against its schema (and, for A2A, its proto).
 *
 * Collects diagnostics rather than throwing, so one run reports every mismatch. Each diagnostic names
 * both sides: it points into the manifest (file, line, pointer) and names the schema or proto location
 * it disagrees with. This is what makes a schema bump safe: a method the new schema adds, drops or
 * reshapes fails here before any code is written.
 */
import type { Diagnostic } from '../errors.ts';
import { checkPinFields } from './a2a-fields.ts';
import { pointer } from '../errors.ts';
import type { LoadedPin } from '../load/index.ts';
import type { Direction, Manifest, ManifestMethod } from '../load/manifest.ts';
import { protoTypeName, type ProtoRpc } from '../load/proto.ts';
import { deref, isObject, parseSchemaRef, refName, resolveSchemaRef, type JsonObject, type SchemaBundle } from '../load/schema.ts';

/**
 * A message's own properties, with the pointer (inside the definition) each is declared at: its `properties`,
 * then those of its `allOf` members (an extension's schema writes a message as `allOf: [{$ref: JSONRPCRequest},
 * {properties: {method, params}}]`, the tasks extension's GetTaskRequest).
 */
function messageProperties(schema: JsonObject): Map<string, { schema: JsonObject; at: string }> {
  const out = new Map<string, { schema: JsonObject; at: string }>();
  const add = (props: unknown, at: string) => {
    if (isObject(props))
      for (const [k, v] of Object.entries(props)) if (isObject(v) && !out.has(k)) out.set(k, { schema: v, at: `${at}/properties/${k}` });
  };
  add(schema['properties'], '#');
  const parts = schema['allOf'];
  if (Array.isArray(parts)) parts.forEach((part, i) => isObject(part) && add(part['properties'], `#/allOf/${i}`));
  return out;
}

/** Definitions that fix a `method` constant, by method. */
function methodDefs(bundle: SchemaBundle): Map<string, string[]> {
  const byMethod = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(bundle.defs)) {
    const method = messageProperties(schema).get('method')?.schema['const'];
    if (typeof method === 'string') byMethod.set(method, [...(byMethod.get(method) ?? []), name]);
  }
  return byMethod;
}

/** Members of a union definition (`anyOf` of refs); a definition that is itself a message is its own member. */
function unionMembers(bundle: SchemaBundle, name: string): Set<string> {
  const schema = bundle.defs[name];
  const out = new Set<string>();
  if (!schema) return out;
  const alts = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(alts)) {
    for (const alt of alts) {
      const member = refName(alt);
      if (member) out.add(member);
    }
  } else if (refName(schema)) out.add(refName(schema)!);
  else out.add(name);
  return out;
}

/** Does `path` (e.g. ['resources','subscribe']) exist as nested properties of the capabilities schema? */
function capabilityExists(bundle: SchemaBundle, def: string, path: readonly string[]): boolean {
  let node = deref(bundle, bundle.defs[def]);
  for (const key of path) {
    const props = node?.['properties'];
    if (!isObject(props) || !isObject(props[key])) return false;
    node = deref(bundle, props[key] as JsonObject);
  }
  return true;
}

/** Properties a schema declares, merged across anyOf/oneOf alternatives (ElicitRequestParams is a union). */
function propertiesOf(bundle: SchemaBundle, schema: JsonObject | undefined): JsonObject {
  const out: JsonObject = {};
  if (!schema) return out;
  if (isObject(schema['properties'])) Object.assign(out, schema['properties']);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const alts = schema[key];
    if (Array.isArray(alts)) for (const alt of alts) if (isObject(alt)) Object.assign(out, propertiesOf(bundle, deref(bundle, alt)));
  }
  return out;
}

/** `request` or `notification` when a message is an `allOf` over the JSON-RPC envelope of one (an extension's schema). */
function envelopeKind(schema: JsonObject): 'request' | 'notification' | undefined {
  const parts = Array.isArray(schema['allOf']) ? schema['allOf'] : [];
  const refs = parts.map((p) => refName(p));
  return refs.includes('JSONRPCRequest') ? 'request' : refs.includes('JSONRPCNotification') ? 'notification' : undefined;
}

class Checker {
  readonly diagnostics: Diagnostic[] = [];
  readonly manifest: Manifest;
  readonly bundle: SchemaBundle;

  constructor(loaded: LoadedPin) {
    this.manifest = loaded.manifest;
    this.bundle = loaded.bundle;
  }

  /** Reports a problem located in the manifest at /methods/<method>/<field>. */
  at(method: string, field: string | undefined, message: string): void {
    const p = field === undefined ? pointer('methods', method) : pointer('methods', method, field);
    this.diagnostics.push({ file: this.manifest.file, pointer: p, ...(this.manifest.locate(p) ?? {}), message });
  }

  /** Reports a problem located in the schema (a definition the manifest does not account for). */
  inSchema(def: string, message: string): void {
    this.diagnostics.push({ file: this.bundle.file, pointer: this.bundle.defSource[def] ?? `/${this.bundle.defsKey}/${def}`, message });
  }

  schemaPtr(def: string): string {
    return `${this.bundle.file} ${this.bundle.defSource[def] ?? def}`;
  }

  /** The named schema reference must resolve; returns the resolved schema. */
  ref(method: string, field: string, text: string): JsonObject | undefined {
    const ref = parseSchemaRef(text);
    if (!(ref.def in this.bundle.defs)) {
      this.at(method, field, `names $def ${ref.def}, which ${this.bundle.file} does not define`);
      return undefined;
    }
    const schema = resolveSchemaRef(this.bundle, ref);
    if (!schema) this.at(method, field, `${text}: the pointer does not resolve inside ${this.schemaPtr(ref.def)}`);
    return schema;
  }

  /** A boolean manifest flag must equal what the schema implies; `fact` reads as "<subject> [does not] <predicate>". */
  flag(method: string, field: string, declared: boolean | undefined, actual: boolean, fact: readonly [string, string]): void {
    if ((declared ?? false) !== actual)
      this.at(method, field, `is ${declared ?? 'absent'}, but ${fact[0]} ${actual ? 'does' : 'does not'} ${fact[1]}`);
  }

  forbid(method: string, entry: ManifestMethod, fields: readonly (keyof ManifestMethod)[], why: string): void {
    for (const f of fields) if (entry[f] !== undefined) this.at(method, f, `does not apply: ${why}`);
  }

  capabilities(method: string, entry: ManifestMethod, defs: Record<string, string>): void {
    const caps = entry.capability === undefined ? [] : typeof entry.capability === 'string' ? [entry.capability] : entry.capability;
    for (const cap of caps) {
      const [side, ...path] = cap.split('.') as [string, ...string[]];
      const def = defs[side];
      if (def === undefined)
        this.at(
          method,
          'capability',
          `${cap}: "${side}" is not a capability holder in ${this.manifest.protocol} (use ${Object.keys(defs).join(' or ')})`,
        );
      else if (!(def in this.bundle.defs)) this.at(method, 'capability', `${cap}: ${this.bundle.file} has no ${def}`);
      else if (!capabilityExists(this.bundle, def, path))
        this.at(method, 'capability', `${cap}: ${this.schemaPtr(def)} has no property path ${path.join('.')}`);
    }
  }
}

function checkMcp(loaded: LoadedPin, c: Checker): void {
  const { bundle, manifest } = loaded;
  const defsByMethod = methodDefs(bundle);
  const clientRequests = unionMembers(bundle, 'ClientRequest');
  const serverRequests = unionMembers(bundle, 'ServerRequest');
  const inputRequests = unionMembers(bundle, 'InputRequest');
  const clientNotifications = unionMembers(bundle, 'ClientNotification');
  const serverNotifications = unionMembers(bundle, 'ServerNotification');
  const serverResults = unionMembers(bundle, 'ServerResult');
  const clientResults = new Set([...unionMembers(bundle, 'ClientResult'), ...unionMembers(bundle, 'InputResponse')]);
  const extension = manifest.extension !== undefined;

  // Schema → manifest: every definition fixing a method constant is accounted for.
  for (const [method, defs] of defsByMethod) {
    const entry = manifest.methods[method];
    for (const def of defs) {
      if (!entry) c.inSchema(def, `fixes method "${method}", but ${manifest.file} has no entry for it`);
      else if (entry.message !== def && !(entry.aliases ?? []).includes(def))
        c.inSchema(
          def,
          `fixes method "${method}", but ${manifest.file} ${pointer('methods', method)} names message ${entry.message ?? '(none)'} and not ${def} (list it under aliases if it is the same message)`,
        );
    }
  }

  // Manifest → schema.
  for (const [method, entry] of Object.entries(manifest.methods)) {
    c.forbid(method, entry, ['rpc', 'streaming', 'http'], 'A2A-only field in an MCP manifest');
    if (!entry.message) {
      c.at(method, 'message', `is required for MCP: the $def of the whole "${method}" message`);
      continue;
    }
    if (!(entry.message in bundle.defs)) {
      c.at(method, 'message', `names $def ${entry.message}, which ${bundle.file} does not define`);
      continue;
    }
    const props = messageProperties(bundle.defs[entry.message]!);
    const fixed = props.get('method')?.schema['const'];
    if (fixed !== method)
      c.at(method, 'message', `${entry.message} fixes method ${JSON.stringify(fixed)} (${c.schemaPtr(entry.message)}), not "${method}"`);
    for (const alias of entry.aliases ?? []) {
      if (!(alias in bundle.defs)) c.at(method, 'aliases', `names $def ${alias}, which ${bundle.file} does not define`);
      else if (!(defsByMethod.get(method) ?? []).includes(alias))
        c.at(method, 'aliases', `${alias} does not fix method "${method}" (${c.schemaPtr(alias)})`);
    }

    // params: must be what the message's `params` property is.
    const paramsSchema = props.get('params');
    const expectedParams = paramsSchema === undefined ? undefined : (refName(paramsSchema.schema) ?? `${entry.message}${paramsSchema.at}`);
    if (entry.params !== expectedParams)
      c.at(
        method,
        'params',
        expectedParams === undefined
          ? `${entry.message} has no params property (${c.schemaPtr(entry.message)}), so params must be left out`
          : `is ${entry.params === undefined ? 'missing' : JSON.stringify(entry.params)}, but ${c.schemaPtr(entry.message)}/properties/params is ${JSON.stringify(expectedParams)}`,
      );
    const params = entry.params ? deref(bundle, c.ref(method, 'params', entry.params)) : undefined;
    const paramProps = propertiesOf(bundle, params);

    // kind and direction from the unions.
    const names = [entry.message, ...(entry.aliases ?? [])];
    const inAny = (set: Set<string>) => names.some((n) => set.has(n));
    const isRequest = inAny(clientRequests) || inAny(serverRequests) || inAny(inputRequests);
    const isNotification = inAny(clientNotifications) || inAny(serverNotifications);
    // An extension's schema has no Client*/Server* unions: its envelope says what the message is.
    const envelope = extension ? envelopeKind(bundle.defs[entry.message]!) : undefined;
    const kind = isRequest ? 'request' : isNotification ? 'notification' : envelope;
    if (kind === undefined)
      c.at(method, 'message', `${entry.message} is in none of ClientRequest, ServerRequest, InputRequest, ClientNotification, ServerNotification`);
    else if (kind !== entry.kind) c.at(method, 'kind', `is ${entry.kind}, but ${entry.message} is a ${kind} in ${bundle.file}`);
    const fromClient = inAny(clientRequests) || inAny(clientNotifications);
    const fromServer = inAny(serverRequests) || inAny(inputRequests) || inAny(serverNotifications);
    const direction: Direction | undefined =
      fromClient && fromServer ? 'both' : fromClient ? 'client-to-server' : fromServer ? 'server-to-client' : undefined;
    if (direction !== undefined && direction !== entry.direction)
      c.at(method, 'direction', `is ${entry.direction}, but the schema's Client*/Server* unions make it ${direction}`);
    c.flag(method, 'embedded', entry.embedded, inAny(inputRequests) && !inAny(serverRequests), [
      entry.message,
      'belong to InputRequest only (input requests travel inside input_required results)',
    ]);

    // result: present for requests, a member of the receiving side's result union.
    if (entry.kind === 'request') {
      if (!entry.result) c.at(method, 'result', 'is required for a request');
      else {
        const result = c.ref(method, 'result', entry.result);
        const def = parseSchemaRef(entry.result).def;
        const allowed =
          entry.direction === 'client-to-server'
            ? serverResults
            : entry.direction === 'server-to-client'
              ? clientResults
              : new Set([...serverResults, ...clientResults]);
        const target = refName(bundle.defs[def]) ?? def;
        if (result && allowed.size > 0 && !allowed.has(def) && !allowed.has(target))
          c.at(method, 'result', `${def} is not among the results the schema lets the receiver send (${[...allowed].sort().join(', ')})`);
        const required = Array.isArray(deref(bundle, result)?.['required']) ? (deref(bundle, result)!['required'] as string[]) : [];
        c.flag(method, 'cacheable', entry.cacheable, required.includes('ttlMs') && required.includes('cacheScope'), [
          def,
          'require ttlMs and cacheScope',
        ]);
      }
    } else c.forbid(method, entry, ['cacheable', 'inputRequired', 'taskAugmented', 'mcpName'], 'only requests have results');

    if (entry.kind === 'request') {
      // A multi round-trip retry carries inputResponses with the round's requestState (schema
      // InputResponseRequestParams); an extension's inputResponses alone (tasks/update) are not a retry.
      const retries = 'inputResponses' in paramProps && (!extension || 'requestState' in paramProps);
      c.flag(method, 'inputRequired', entry.inputRequired, retries, [entry.params ?? 'its params', 'accept inputResponses (multi round-trip)']);
      c.flag(method, 'taskAugmented', entry.taskAugmented, 'task' in paramProps, [
        entry.params ?? 'its params',
        'accept a task (task-augmented request)',
      ]);
      if (entry.mcpName !== undefined) {
        const prop = paramProps[entry.mcpName];
        const required = Array.isArray(params?.['required']) && (params!['required'] as string[]).includes(entry.mcpName);
        if (!isObject(prop) || prop['type'] !== 'string' || !required)
          c.at(method, 'mcpName', `names params.${entry.mcpName}, which is not a required string property of ${entry.params}`);
      }
    }
    c.capabilities(method, entry, { server: 'ServerCapabilities', client: 'ClientCapabilities' });
  }
}

function routesEqual(
  a: readonly { verb: string; path: string; body?: string }[],
  b: readonly { verb: string; path: string; body?: string }[],
): boolean {
  return a.length === b.length && a.every((r, i) => r.verb === b[i]!.verb && r.path === b[i]!.path && r.body === b[i]!.body);
}

function showRoutes(routes: readonly { verb: string; path: string; body?: string }[]): string {
  return routes.map((r) => `${r.verb} ${r.path}${r.body ? ` body ${r.body}` : ''}`).join(', ') || '(none)';
}

function checkA2a(loaded: LoadedPin, c: Checker): void {
  const { manifest, proto } = loaded;
  const service = proto?.services.find((s) => s.name === manifest.service);
  if (!proto || !service) {
    c.diagnostics.push({
      file: manifest.file,
      pointer: '/service',
      ...(manifest.locate('/service') ?? {}),
      message: `names service ${JSON.stringify(manifest.service)}, which the proto does not define (it has ${proto?.services.map((s) => s.name).join(', ') || 'none'})`,
    });
    return;
  }
  const rpcs = new Map<string, ProtoRpc>(service.rpcs.map((r) => [r.name, r]));
  const covered = new Set<string>();
  for (const [method, entry] of Object.entries(manifest.methods)) {
    c.forbid(
      method,
      entry,
      ['message', 'aliases', 'cacheable', 'inputRequired', 'taskAugmented', 'embedded', 'mcpName'],
      'MCP-only field in an A2A manifest',
    );
    const rpcName = entry.rpc ?? method;
    const rpc = rpcs.get(rpcName);
    if (!rpc) {
      c.at(method, entry.rpc ? 'rpc' : undefined, `service ${service.name} in the proto has no rpc ${rpcName}`);
      continue;
    }
    covered.add(rpcName);
    const where = `the proto's rpc ${rpc.name} (line ${rpc.line})`;
    if (entry.kind !== 'request') c.at(method, 'kind', `is ${entry.kind}, but ${where} is a request`);
    if (entry.direction !== 'client-to-server') c.at(method, 'direction', `is ${entry.direction}, but A2A rpcs go client-to-server`);
    const input = protoTypeName(proto, rpc.input);
    const output = protoTypeName(proto, rpc.output);
    if (entry.params !== input) c.at(method, 'params', `is ${entry.params ?? 'missing'}, but ${where} takes ${rpc.input}`);
    else c.ref(method, 'params', entry.params);
    if (entry.result !== output)
      c.at(method, 'result', `is ${entry.result ?? 'missing'}, but ${where} returns ${rpc.serverStreaming ? 'stream ' : ''}${rpc.output}`);
    else c.ref(method, 'result', entry.result);
    if ((entry.streaming ?? false) !== rpc.serverStreaming)
      c.at(method, 'streaming', `is ${entry.streaming ?? false}, but ${where} ${rpc.serverStreaming ? 'returns a stream' : 'does not stream'}`);
    if (!routesEqual(entry.http ?? [], rpc.http))
      c.at(method, 'http', `is ${showRoutes(entry.http ?? [])}, but ${where} is annotated ${showRoutes(rpc.http)}`);
    c.capabilities(method, entry, { agent: 'AgentCapabilities' });
  }
  for (const rpc of service.rpcs)
    if (!covered.has(rpc.name))
      c.diagnostics.push({
        file: proto.file,
        line: rpc.line,
        column: 3,
        message: `rpc ${rpc.name} of service ${service.name} has no entry in ${manifest.file}`,
      });
}

/** Cross-checks one loaded pin; returns every mismatch found (empty when consistent). */
export function checkManifest(loaded: LoadedPin): Diagnostic[] {
  const c = new Checker(loaded);
  if (loaded.manifest.protocol === 'mcp') checkMcp(loaded, c);
  else {
    checkA2a(loaded, c);
    c.diagnostics.push(...checkPinFields(loaded));
  }
  return c.diagnostics;
}
