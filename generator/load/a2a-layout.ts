/**
 * @module load/a2a-layout — reads the definitions of an A2A bundled JSON Schema in either layout upstream
 * has published, naming each after its proto message, and resolves the bundle's references to those names.
 *
 * - `definitions` keyed by title ("Send Message Request"), referring to one another as files
 *   (`lf.a2a.v1.SendMessageRequest.jsonschema.json`): specification/json/a2a.json of A2A v1.0.0, built with
 *   protoc-gen-jsonschema `target=json` and jq.
 * - `$defs` keyed by message name with local refs (`#/$defs/SendMessageRequest`): the build since A2A commit
 *   2c3affc9 (`target=json-bundle`, then scripts/clean_schema_names.py). The plugin's own keys
 *   (`lf.a2a.v1.SendMessageRequest.jsonschema.json`) are read too, as the cleaning script names them.
 *
 * Each definition loses its `$schema`, `$id` and `title`; the copies are the caller's to change.
 */
import { fail } from '../errors.ts';
import type { ProtoFile } from './proto.ts';
import { isObject, type JsonObject } from './schema.ts';

export interface A2aDefinitions {
  /** Definitions by proto message name (copies). */
  readonly defs: Record<string, JsonObject>;
  /** Each definition's JSON pointer in the file. */
  readonly defSource: Record<string, string>;
  /** The definition name a `$ref` of the bundle names; fails naming `at` (a JSON pointer) when none. */
  readonly resolveRef: (ref: string, at: string) => string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Reads the definitions of `doc` (either layout) from `file`, using the proto's package to read names. */
export function readDefinitions(doc: JsonObject, file: string, proto: Pick<ProtoFile, 'package'>): A2aDefinitions {
  const packages = [proto.package, 'google.protobuf'].map((p) => p.replace(/\./g, '\\.')).join('|');
  // `<package>.<Message>.jsonschema.json` and `google.protobuf.<Type>.jsonschema.json`: the files the bundle refers to.
  const fileName = new RegExp(`^(?:${packages})\\.([A-Za-z0-9_.]+)\\.jsonschema\\.json$`);
  const titled = doc['definitions'];
  const named = doc['$defs'];
  const byTitle = isObject(titled);
  const source = byTitle ? titled : named;
  const key = byTitle ? 'definitions' : '$defs';
  if (!isObject(source))
    fail({
      file,
      pointer: '',
      message:
        'expected "definitions" (definitions keyed by title, file-style refs: A2A v1.0.0) or "$defs" (keyed by message name, local refs: the newer build)',
    });

  const defs: Record<string, JsonObject> = {};
  const defSource: Record<string, string> = {};
  /** The bundle's own key of each definition → its name. */
  const keyName = new Map<string, string>();
  for (const [k, schema] of Object.entries(source)) {
    const at = `/${key}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!isObject(schema)) fail({ file, pointer: at, message: 'a definition must be a JSON object' });
    let name: string;
    if (byTitle) {
      const title = typeof schema['title'] === 'string' ? schema['title'] : k;
      name = title.replace(/ /g, '');
      if (!NAME.test(name)) fail({ file, pointer: `${at}/title`, message: `cannot derive a definition name from title ${JSON.stringify(title)}` });
    } else {
      name = fileName.exec(k)?.[1] ?? k;
      if (!NAME.test(name)) fail({ file, pointer: at, message: `cannot use ${JSON.stringify(k)} as a definition name (a nested message?)` });
    }
    if (name in defs) fail({ file, pointer: at, message: `two definitions are both named ${name}` });
    const copy = structuredClone(schema);
    for (const drop of ['$schema', '$id', 'title']) delete copy[drop];
    defs[name] = copy;
    defSource[name] = at;
    keyName.set(k, name);
  }

  const resolveRef = (ref: string, at: string): string => {
    const local = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
    if (local) {
      const target = keyName.get(local[1]!.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (target === undefined)
        fail({ file, pointer: at, message: `unresolved reference ${JSON.stringify(ref)}: no definition is keyed ${local[1]}` });
      return target;
    }
    const target = fileName.exec(ref)?.[1];
    if (target === undefined || !(target in defs))
      fail({ file, pointer: at, message: `unresolved reference ${JSON.stringify(ref)}: no definition is titled after ${target ?? 'it'}` });
    return target;
  };
  return { defs, defSource, resolveRef };
}
