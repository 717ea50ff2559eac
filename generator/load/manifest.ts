/**
 * @module load/manifest — reads a method manifest (YAML), validates it against
 * schemas/manifest/manifest.schema.json, and keeps a locator so later passes can point at lines.
 */
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { fail } from '../errors.ts';
import { readJson } from './json.ts';
import { display, type Pin } from './pins.ts';
import { assertValid, compileInputSchema, type Locator } from './validate-input.ts';
import { readYaml } from './yaml.ts';

export type Direction = 'client-to-server' | 'server-to-client' | 'both';

export interface ManifestRoute {
  readonly verb: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
}

/** One manifest entry, as written. */
export interface ManifestMethod {
  readonly kind: 'request' | 'notification';
  readonly direction: Direction;
  readonly message?: string;
  readonly aliases?: readonly string[];
  readonly params?: string;
  readonly result?: string;
  readonly capability?: string | readonly string[];
  readonly cacheable?: boolean;
  readonly inputRequired?: boolean;
  readonly taskAugmented?: boolean;
  readonly embedded?: boolean;
  readonly mcpName?: string;
  readonly rpc?: string;
  readonly streaming?: boolean;
  readonly http?: readonly ManifestRoute[];
}

export interface Manifest {
  readonly file: string;
  readonly pin: string;
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  readonly service?: string;
  /** MCP: the extension identifier when the pin is an extension's schema (SEP-2133), served on top of a revision. */
  readonly extension?: string;
  readonly methods: Readonly<Record<string, ManifestMethod>>;
  /** Maps a JSON pointer into the manifest to its line and column. */
  readonly locate: Locator;
}

/** Loads the manifest of `pin`, validating its shape; cross-checks happen in check/. */
export function loadManifest(ctx: Context, pin: Pin, schemaValidator = manifestValidator(ctx)): Manifest {
  const abs = join(ctx.options.schemasDir, pin.manifest);
  const file = display(ctx, abs);
  const { data, locate } = readYaml(abs, file);
  assertValid(schemaValidator, data, file, locate);
  const manifest = data as Omit<Manifest, 'file' | 'locate'>;
  if (manifest.pin !== pin.id)
    fail({
      file,
      pointer: '/pin',
      ...locate('/pin'),
      message: `names pin ${JSON.stringify(manifest.pin)} but schemas/pins.json lists this file under ${pin.id}`,
    });
  if (manifest.protocol !== pin.protocol || manifest.revision !== pin.revision)
    fail({
      file,
      pointer: '/revision',
      ...locate('/revision'),
      message: `is for ${manifest.protocol}@${manifest.revision}, but pin ${pin.id} is ${pin.protocol}@${pin.revision}`,
    });
  return { ...manifest, file, locate };
}

/** Compiles schemas/manifest/manifest.schema.json once per run. */
export function manifestValidator(ctx: Context) {
  const abs = join(ctx.options.schemasDir, 'manifest', 'manifest.schema.json');
  return compileInputSchema(readJson(abs, display(ctx, abs)) as object);
}
