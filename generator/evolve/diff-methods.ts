/**
 * @module evolve/diff-methods — the changes between two pins' method manifests: methods added and removed,
 * and per method its kind, direction, params, result and capability gates. A params or result that names
 * another definition is reported, and the two shapes are compared (evolve/diff-schema.ts) so a rename that
 * keeps the wire says so. For A2A the methods are the proto's rpcs (evolve/diff-proto.ts compares those);
 * only the capability gates, which only the manifest holds, are compared here.
 */
import { escapePointerToken, pointer } from '../errors.ts';
import type { LoadedPin } from '../load/index.ts';
import type { Manifest, ManifestMethod } from '../load/manifest.ts';
import { parseSchemaRef, resolveSchemaRef, type SchemaBundle } from '../load/schema.ts';
import type { SchemaDiff } from './diff-schema.ts';
import type { Finding, FindingClass } from './findings.ts';

function gates(entry: ManifestMethod): string[] {
  const caps = entry.capability === undefined ? [] : typeof entry.capability === 'string' ? [entry.capability] : [...entry.capability];
  return caps.sort();
}

/** The JSON pointer in the schema file a manifest schema reference (`Def` or `Def#/pointer`) names. */
function schemaPointer(bundle: SchemaBundle, text: string): string {
  const ref = parseSchemaRef(text);
  return (bundle.defSource[ref.def] ?? `/${bundle.defsKey}/${escapePointerToken(ref.def)}`) + pointer(...ref.tokens);
}

/** Compares the manifests of `a` and `b`; `shapes` compares the schemas of changed params and results. */
export function diffMethods(a: LoadedPin, b: LoadedPin, shapes: SchemaDiff): Finding[] {
  const out: Finding[] = [];
  const ma = a.manifest.methods;
  const mb = b.manifest.methods;
  const at = (manifest: Manifest, method: string, field?: string) => {
    const p = field === undefined ? pointer('methods', method) : pointer('methods', method, field);
    const where = manifest.locate(p);
    return { file: manifest.file, pointer: p, ...(where ? { line: where.line, column: where.column } : {}) };
  };
  const push = (rule: string, cls: FindingClass, loc: ReturnType<typeof at>, subject: string, message: string) =>
    out.push({ rule, class: cls, ...loc, subject, message });
  const mcp = a.manifest.protocol === 'mcp';

  for (const [method, ea] of Object.entries(ma)) {
    const eb = mb[method];
    if (!eb) {
      if (mcp) push('METHOD_NO_DELETE', 'wire-breaking', at(a.manifest, method), method, `method "${method}" removed`);
      continue;
    }
    if (mcp) {
      if (ea.kind !== eb.kind)
        push('METHOD_SAME_KIND', 'wire-breaking', at(b.manifest, method, 'kind'), method, `"${method}" is a ${eb.kind}, was a ${ea.kind}`);
      if (ea.direction !== eb.direction)
        push(
          'METHOD_SAME_DIRECTION',
          'wire-breaking',
          at(b.manifest, method, 'direction'),
          method,
          `"${method}" goes ${eb.direction}, went ${ea.direction}`,
        );
      for (const field of ['params', 'result'] as const) {
        const x = ea[field];
        const y = eb[field];
        if (x === y) continue;
        const rule = field === 'params' ? 'METHOD_SAME_PARAMS' : 'METHOD_SAME_RESULT';
        push(rule, 'source-breaking', at(b.manifest, method, field), method, `"${method}" ${field} is ${y ?? '(none)'}, was ${x ?? '(none)'}`);
        if (x === undefined || y === undefined) {
          push(rule, 'wire-breaking', at(b.manifest, method, field), method, `"${method}" ${y === undefined ? 'no longer has' : 'now has'} ${field}`);
          continue;
        }
        shapes.schema(resolveSchemaRef(a.bundle, parseSchemaRef(x)), resolveSchemaRef(b.bundle, parseSchemaRef(y)), {
          ptrA: schemaPointer(a.bundle, x),
          ptrB: schemaPointer(b.bundle, y),
          label: `${method} ${field}`,
        });
      }
    }
    const ga = gates(ea);
    const gb = gates(eb);
    if (ga.join() !== gb.join()) {
      const loc = at(b.manifest, method, 'capability');
      const show = (g: string[]) => (g.length ? g.join(', ') : '(none)');
      const lost = ga.filter((g) => !gb.includes(g));
      const gained = gb.filter((g) => !ga.includes(g));
      push(
        'METHOD_SAME_CAPABILITY',
        gained.length ? 'wire-breaking' : 'compatible',
        loc,
        method,
        `"${method}" is gated by ${show(gb)}, was ${show(ga)}${lost.length && !gained.length ? ' (fewer gates)' : ''}`,
      );
    }
  }
  if (mcp)
    for (const method of Object.keys(mb))
      if (!(method in ma)) push('METHOD_ADDED', 'compatible', at(b.manifest, method), method, `method "${method}" added`);
  return out;
}
