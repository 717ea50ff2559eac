/**
 * @module check/a2a-fields — every message field of the A2A proto against the bundled JSON Schema.
 *
 * The proto is normative and the bundle is built from it, so the two must name the same fields: a field the
 * proto renames while the bundle keeps the old name would otherwise pass, with the REQUIRED constraint
 * landing on a property the bundle does not have and the old one silently optional. Each mismatch is one
 * diagnostic naming both sides: the proto's file, line and field, and the bundle's file and JSON pointer.
 */
import type { Diagnostic } from '../errors.ts';
import type { LoadedPin } from '../load/index.ts';
import type { ProtoFile } from '../load/proto.ts';
import { isObject, type SchemaBundle } from '../load/schema.ts';

/** google.protobuf types the bundle defines and the proto only imports. */
const WELL_KNOWN: ReadonlySet<string> = new Set([
  'Any',
  'Duration',
  'Empty',
  'FieldMask',
  'ListValue',
  'NullValue',
  'Struct',
  'Timestamp',
  'Value',
  'BoolValue',
  'BytesValue',
  'DoubleValue',
  'FloatValue',
  'Int32Value',
  'Int64Value',
  'StringValue',
  'UInt32Value',
  'UInt64Value',
]);

const quote = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(', ');

/** Cross-checks the proto's messages and fields with the bundle's definitions and properties. */
export function checkProtoFields(bundle: SchemaBundle, proto: ProtoFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = (def: string) => `${bundle.file} ${bundle.defSource[def] ?? `/${bundle.defsKey}/${def}`}`;
  for (const message of proto.messages.values()) {
    if (message.name.includes('.')) continue; // nested messages have no definition of their own
    const def = bundle.defs[message.name];
    if (!def) {
      out.push({
        file: proto.file,
        line: message.line,
        column: message.column,
        message: `message ${message.name} has no definition in ${bundle.file}; pin the bundle built from this proto`,
      });
      continue;
    }
    const props = isObject(def['properties']) ? Object.keys(def['properties']) : [];
    const declared = new Set(message.fields.map((f) => f.jsonName));
    const extra = props.filter((p) => !declared.has(p));
    const missing = message.fields.filter((f) => !props.includes(f.jsonName));
    for (const field of missing)
      out.push({
        file: proto.file,
        line: field.line,
        column: field.column,
        message:
          `field ${message.name}.${field.name} = ${field.number} has no property "${field.jsonName}" in ${where(message.name)}/properties` +
          (extra.length ? `, which has ${quote(extra)} instead (renamed?)` : '') +
          '; pin the bundle built from this proto',
      });
    if (missing.length === 0)
      for (const name of extra)
        out.push({
          file: bundle.file,
          pointer: `${bundle.defSource[message.name]}/properties/${name}`,
          message: `property "${name}" is no field of message ${message.name} (${proto.file}:${message.line}); pin the bundle built from this proto`,
        });
  }
  for (const name of Object.keys(bundle.defs))
    if (!proto.messages.has(name) && !proto.enums.has(name) && !WELL_KNOWN.has(name))
      out.push({
        file: bundle.file,
        pointer: bundle.defSource[name] ?? `/${bundle.defsKey}/${name}`,
        message: `definition ${name} is no message or enum of ${proto.file}`,
      });
  return out;
}

/** The cross-check for a loaded A2A pin (nothing for MCP). */
export function checkPinFields(loaded: LoadedPin): Diagnostic[] {
  return loaded.proto ? checkProtoFields(loaded.bundle, loaded.proto) : [];
}
