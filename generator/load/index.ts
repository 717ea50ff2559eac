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
import { bundleFromDocument, type SchemaBundle } from './schema.ts';

export interface LoadedPin {
  readonly pin: Pin;
  readonly bundle: SchemaBundle;
  readonly manifest: Manifest;
  readonly proto?: ProtoFile;
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
    proto = parseProto(readText(protoPath, protoName), protoName);
  }
  const bundle = pin.protocol === 'a2a' && proto ? bundleA2a(doc, schemaName, proto) : bundleFromDocument(doc, schemaName);
  const manifest = loadManifest(ctx, pin, validator);
  return { pin, bundle, manifest, ...(proto ? { proto } : {}) };
}
