/**
 * @module load/a2a — turns the A2A bundled JSON Schema into one self-contained document.
 *
 * Two layouts are read (load/a2a-layout.ts). The v1.0.0 bundle keys its 47 definitions by title ("Send
 * Message Request") and refers to them as separate files (`lf.a2a.v1.SendMessageRequest.jsonschema.json`,
 * `google.protobuf.Struct.jsonschema.json`); upstream's newer build (protoc-gen-jsonschema `json-bundle`, then
 * scripts/clean_schema_names.py, https://github.com/a2aproject/A2A commit 2c3affc9) keys `$defs` by message
 * name with local `#/$defs/<Name>` refs. Either way each definition is named after its proto message, every
 * reference becomes a local `#/$defs/<Name>`, this pass hoists the inline proto enums (`"title": "Task State"`) into
 * definitions of their own, and adds `Empty` for `google.protobuf.Empty`, which the bundle omits but the
 * proto's rpcs return. A reference that names no definition is an error naming its JSON pointer.
 *
 * What only the validators need goes to the bundle's `validationOnly`, not into the definitions the types
 * are written from: each proto `oneof` (exactly one member set) and ProtoJSON's snake_case spellings of the
 * field names (`^(context_id)$` patterns; the types show the camelCase names, which ProtoJSON output uses).
 */
import { fail, pointer } from '../errors.ts';
import { readDefinitions } from './a2a-layout.ts';
import type { ProtoFile } from './proto.ts';
import { draftOf, isObject, mapSchema, walkSchema, withoutKeywords, type Json, type JsonObject, type SchemaBundle } from './schema.ts';

/** Keywords that describe rather than constrain; ignored when comparing two copies of an enum. */
const ANNOTATIONS: ReadonlySet<string> = new Set(['description', 'default', 'title', '$comment', 'examples']);

function withoutAnnotations(node: Json): Json {
  return mapSchema(node, (schema) => withoutKeywords(schema, ANNOTATIONS));
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

/** Options of {@link bundleA2a}. */
export interface A2aBundleOptions {
  /**
   * Take every message's, field's and enum's description from the proto's doc comments, as
   * protoc-gen-jsonschema writes them (see {@link protoDescription}): for a proto newer than the bundle.
   * Default: false (the bundle's descriptions).
   */
  readonly docsFromProto?: boolean;
}

/**
 * A doc comment as protoc-gen-jsonschema turns it into a description (bufbuild/protoschema-plugins,
 * `setDescription`): trimmed; of two or more paragraphs the first is the title, the rest the description.
 */
export function protoDescription(doc: string | undefined): string | undefined {
  if (doc === undefined) return undefined;
  const text = doc.trim();
  const split = text.indexOf('\n\n');
  return split < 0 ? text : text.slice(split + 2).trim();
}

/** Replaces the bundle's descriptions with the proto's (messages, their fields in both spellings, enums). */
function applyProtoDocs(defs: Record<string, JsonObject>, proto: ProtoFile): void {
  const set = (node: JsonObject | undefined, doc: string | undefined) => {
    if (!node) return;
    const text = protoDescription(doc);
    if (text === undefined) delete node['description'];
    else node['description'] = text;
  };
  for (const message of proto.messages.values()) {
    const def = defs[message.name];
    if (!def) continue;
    set(def, message.doc);
    const props = isObject(def['properties']) ? def['properties'] : {};
    const patterns = isObject(def['patternProperties']) ? def['patternProperties'] : {};
    for (const field of message.fields)
      for (const node of [props[field.jsonName], patterns[`^(${field.name})$`]]) if (isObject(node)) set(node, field.doc);
  }
  for (const e of proto.enums.values()) if (defs[e.name] && e.doc !== undefined) set(defs[e.name], e.doc);
}

/** Bundles `doc` (the parsed a2a.json) using the proto's enum and rpc facts. */
export function bundleA2a(doc: unknown, file: string, proto: ProtoFile, options: A2aBundleOptions = {}): SchemaBundle {
  if (!isObject(doc)) fail({ file, pointer: '', message: 'a schema document must be a JSON object' });
  const draft = draftOf(doc, file);
  const { defs, defSource, resolveRef } = readDefinitions(doc, file, proto);

  const enumNames = new Set([...proto.enums.keys()].filter((n) => !n.includes('.')));
  for (const [name, schema] of Object.entries({ ...defs })) {
    walkSchema(schema, (node, path) => {
      const at = () => defSource[name] + pointer(...path);
      const ref = node['$ref'];
      if (typeof ref === 'string') {
        node['$ref'] = `#/$defs/${resolveRef(ref, `${at()}/$ref`)}`;
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

  if (options.docsFromProto) applyProtoDocs(defs, proto);
  const validationOnly = applyProtoConstraints(defs, proto);

  const sorted: Record<string, JsonObject> = {};
  for (const name of Object.keys(defs).sort()) sorted[name] = defs[name]!;
  return { file, draft, defsKey: '$defs', defs: sorted, validationOnly, defSource };
}
