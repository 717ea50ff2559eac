/**
 * @module load/a2a — turns the A2A bundled JSON Schema into one self-contained document.
 *
 * The published bundle keys its 47 definitions by title ("Send Message Request") and refers to them as
 * separate files (`lf.a2a.v1.SendMessageRequest.jsonschema.json`, `google.protobuf.Struct.jsonschema.json`).
 * This pass renames each definition after its proto message (the title without spaces), rewrites every
 * reference to a local `#/$defs/<Name>`, hoists the inline proto enums (`"title": "Task State"`) into
 * definitions of their own, and adds `Empty` for `google.protobuf.Empty`, which the bundle omits but the
 * proto's rpcs return. A reference that names no definition is an error naming its JSON pointer.
 *
 * What only the validators need goes to the bundle's `validationOnly`, not into the definitions the types
 * are written from: each proto `oneof` (exactly one member set) and ProtoJSON's snake_case spellings of the
 * field names (`^(context_id)$` patterns; the types show the camelCase names, which ProtoJSON output uses).
 */
import { fail, pointer } from '../errors.ts';
import type { ProtoFile } from './proto.ts';
import { draftOf, isObject, mapSchema, walkSchema, withoutKeywords, type Json, type JsonObject, type SchemaBundle } from './schema.ts';

/** Keywords that describe rather than constrain; ignored when comparing two copies of an enum. */
const ANNOTATIONS: ReadonlySet<string> = new Set(['description', 'default', 'title', '$comment', 'examples']);

function withoutAnnotations(node: Json): Json {
  return mapSchema(node, (schema) => withoutKeywords(schema, ANNOTATIONS));
}

function clone<T extends Json>(v: T): T {
  return structuredClone(v);
}

/**
 * What the bundle leaves to the proto (shared README): `field_behavior = REQUIRED` becomes `required` (of the
 * camelCase name, which ProtoJSON output uses; the spec, §5.5, requires camelCase), and a required repeated
 * field must have an element (except in a *Response message: a list there may be empty, and ProtoJSON omits
 * empty lists); each `oneof` must have exactly one member set (either spelling). The oneofs and the
 * snake_case patterns the bundle carries go to the returned validation-only keywords, by definition.
 */
function applyProtoConstraints(defs: Record<string, JsonObject>, proto: ProtoFile): Record<string, JsonObject> {
  const validationOnly: Record<string, JsonObject> = {};
  for (const message of proto.messages.values()) {
    const def = defs[message.name];
    if (!def) continue;
    const required = new Set<string>((def['required'] as string[] | undefined) ?? []);
    for (const field of message.fields) {
      if (!field.behaviors.includes('REQUIRED')) continue;
      if (field.repeated && message.name.endsWith('Response')) continue;
      required.add(field.jsonName);
      if (!field.repeated) continue;
      const props = def['properties'] as JsonObject | undefined;
      const patterns = def['patternProperties'] as JsonObject | undefined;
      for (const schema of [props?.[field.jsonName], patterns?.[`^(${field.name})$`]])
        if (isObject(schema) && schema['type'] === 'array') schema['minItems'] = 1;
    }
    if (required.size) def['required'] = [...required];
    const extra: JsonObject = {};
    const patterns = def['patternProperties'];
    if (isObject(patterns)) {
      const aliases = new Set(message.fields.filter((f) => f.jsonName !== f.name).map((f) => `^(${f.name})$`));
      const moved: JsonObject = {};
      for (const key of Object.keys(patterns)) {
        if (!aliases.has(key)) continue;
        moved[key] = patterns[key]!;
        delete patterns[key];
      }
      if (Object.keys(moved).length) extra['patternProperties'] = moved;
      if (Object.keys(patterns).length === 0) delete def['patternProperties'];
    }
    const oneofs: JsonObject[] = message.oneofs.map((group) => ({
      oneOf: message.fields
        .filter((f) => f.oneof === group)
        .map((f): JsonObject => (f.jsonName === f.name ? { required: [f.name] } : { anyOf: [{ required: [f.jsonName] }, { required: [f.name] }] })),
    }));
    if (oneofs.length) extra['allOf'] = oneofs;
    if (Object.keys(extra).length) validationOnly[message.name] = extra;
  }
  return validationOnly;
}

/** Bundles `doc` (the parsed a2a.json) using the proto's enum and rpc facts. */
export function bundleA2a(doc: unknown, file: string, proto: ProtoFile): SchemaBundle {
  if (!isObject(doc)) fail({ file, pointer: '', message: 'a schema document must be a JSON object' });
  const draft = draftOf(doc, file);
  // `<package>.<Message>.jsonschema.json` and `google.protobuf.<Type>.jsonschema.json`: the files the bundle refers to.
  const fileRef = new RegExp(
    `^(?:${[proto.package, 'google.protobuf'].map((p) => p.replace(/\./g, '\\.')).join('|')})\\.([A-Za-z0-9_]+)\\.jsonschema\\.json$`,
  );
  const source = doc['definitions'];
  if (!isObject(source)) fail({ file, pointer: '/definitions', message: 'expected a "definitions" object' });

  const defs: Record<string, JsonObject> = {};
  const defSource: Record<string, string> = {};
  for (const [key, schema] of Object.entries(source)) {
    if (!isObject(schema)) fail({ file, pointer: `/definitions/${key}`, message: 'a definition must be a JSON object' });
    const title = typeof schema['title'] === 'string' ? schema['title'] : key;
    const name = title.replace(/ /g, '');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      fail({ file, pointer: `/definitions/${key}/title`, message: `cannot derive a definition name from title ${JSON.stringify(title)}` });
    if (name in defs) fail({ file, pointer: `/definitions/${key}`, message: `two definitions are both named ${name}` });
    const copy = clone(schema);
    delete copy['$schema'];
    delete copy['title'];
    defs[name] = copy;
    defSource[name] = `/definitions/${key}`;
  }

  const enumNames = new Set([...proto.enums.keys()].filter((n) => !n.includes('.')));
  for (const [name, schema] of Object.entries({ ...defs })) {
    walkSchema(schema, (node, path) => {
      const at = () => defSource[name] + pointer(...path);
      const ref = node['$ref'];
      if (typeof ref === 'string') {
        const m = fileRef.exec(ref);
        const target = m?.[1];
        if (target === undefined || !(target in defs))
          fail({
            file,
            pointer: `${at()}/$ref`,
            message: `unresolved reference ${JSON.stringify(ref)}: no definition is titled after ${target ?? 'it'}`,
          });
        node['$ref'] = `#/$defs/${target}`;
        return;
      }
      const title = node['title'];
      if (path.length === 0 || typeof title !== 'string') return;
      const enumName = title.replace(/ /g, '');
      delete node['title'];
      if (!enumNames.has(enumName)) return;
      const shape = withoutAnnotations(node);
      const existing = defs[enumName];
      if (existing === undefined) {
        defs[enumName] = { description: `The proto enum ${enumName}.`, ...(shape as JsonObject) };
        defSource[enumName] = at();
      } else if (JSON.stringify(withoutAnnotations(existing)) !== JSON.stringify(shape)) {
        return; // a differing copy stays inline
      }
      const keep: JsonObject = {};
      for (const k of ['description', 'default'] as const) if (node[k] !== undefined) keep[k] = node[k]!;
      for (const k of Object.keys(node)) delete node[k];
      Object.assign(node, { $ref: `#/$defs/${enumName}` }, keep);
    });
  }

  const returnsEmpty = proto.services.some((s) => s.rpcs.some((r) => r.output === 'google.protobuf.Empty'));
  if (returnsEmpty && !('Empty' in defs)) {
    defs['Empty'] = {
      description: 'google.protobuf.Empty: an rpc that returns nothing answers `{}` in ProtoJSON.',
      type: 'object',
      additionalProperties: false,
    };
    defSource['Empty'] = '(google.protobuf.Empty, from the proto)';
  }

  const validationOnly = applyProtoConstraints(defs, proto);

  const sorted: Record<string, JsonObject> = {};
  for (const name of Object.keys(defs).sort()) sorted[name] = defs[name]!;
  return { file, draft, defsKey: '$defs', defs: sorted, validationOnly, defSource };
}
