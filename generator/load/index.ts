/**
 * @module load — everything one pin consists of, read and shape-checked: the schema bundle, the manifest
 * and (A2A) the proto. Cross-checks between them live in check/.
 */
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { bundleA2a } from './a2a.ts';
import { readJson, readText } from './json.ts';
import { loadManifest, manifestValidator, type Manifest } from './manifest.ts';
import { display, type Pin } from './pins.ts';
import { parseProto, type ProtoFile } from './proto.ts';
import type { LexOptions } from './proto-lex.ts';
import { isNewer } from './version.ts';
import { bundleFromDocument, type SchemaBundle } from './schema.ts';

export interface LoadedPin {
  readonly pin: Pin;
  readonly bundle: SchemaBundle;
  readonly manifest: Manifest;
  readonly proto?: ProtoFile;
}

/** A2A's build drops these comment lines before protoc reads the proto (load/proto-lex.ts). */
export const A2A_LEX: LexOptions = { dropCommentLines: /\/\/ (?:--8<--|protolint:)/ };

/** Whether the pin's proto comes from a later release than its bundle: then the doc comments are the proto's. */
export function protoIsNewer(pin: Pin): boolean {
  const proto = pin.files.find((f) => f.path === pin.proto);
  const schema = pin.files.find((f) => f.path === pin.schema);
  return proto !== undefined && schema !== undefined && isNewer(pin, proto, schema);
}

export function loadPinInputs(ctx: Context, pin: Pin, validator = manifestValidator(ctx)): LoadedPin {
  const schemaPath = join(ctx.options.schemasDir, pin.schema);
  const schemaName = display(ctx, schemaPath);
  const doc = readJson(schemaPath, schemaName);
  let proto: ProtoFile | undefined;
  if (pin.protocol === 'a2a' && pin.proto === undefined)
    fail({
      file: display(ctx, ctx.options.pinsFile),
      message: `pin ${pin.id}: an A2A pin needs "proto" (the bundled JSON Schema lacks required fields, oneofs and HTTP routes)`,
    });
  if (pin.proto !== undefined) {
    const protoPath = join(ctx.options.schemasDir, pin.proto);
    const protoName = display(ctx, protoPath);
    proto = parseProto(readText(protoPath, protoName), protoName, A2A_LEX);
  }
  const bundle =
    pin.protocol === 'a2a' && proto ? bundleA2a(doc, schemaName, proto, { docsFromProto: protoIsNewer(pin) }) : bundleFromDocument(doc, schemaName);
  const manifest = loadManifest(ctx, pin, validator);
  return { pin, bundle, manifest, ...(proto ? { proto } : {}) };
}
