/**
 * @module evolve/spec/server — what changed for the clients of an MCP server spec: its tools, resources, resource
 * templates and prompts by their key (name, uri, uriTemplate), each tool's inputSchema as what clients send and
 * its outputSchema as what they receive (evolve/diff-schema.ts, flows `in` and `out`), its annotations
 * (evolve/spec/annotations.ts), prompt arguments, the capabilities of both eras, and the wire choices.
 */
import { isObject } from '../../load/schema.ts';
import { diffAnnotations } from './annotations.ts';
import { soleRename } from '../rename.ts';
import { get, type SpecDiff, type SpecVersion } from './compare.ts';

/** Server spec options that change what goes on the wire (spec/server.schema.json). */
const WIRE_CHOICES = ['unknownTool', 'isErrorFalse', 'completionCounts', 'instructionsIn', 'supportedVersions', 'methodNotFound', 'thrownErrors'];

/** Every change between two MCP server specs. */
export function diffServer(d: SpecDiff): void {
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
      diffAnnotations(d, x, y, pb, n);
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
      const required = (v: SpecVersion, p: string) => {
        const arg = get(v.data, p);
        return isObject(arg) && arg['required'] === true;
      };
      // Removals and additions wait for the end of the list: a sole one of each, alike, is a rename.
      const gone: [string, string][] = [];
      const come: [string, string][] = [];
      d.items(
        [`${pa}/arguments`, `${pb}/arguments`],
        'name',
        (g, p) => gone.push([g, p]),
        (g, p) => come.push([g, p]),
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
      const renamed = soleRename(gone, come, ([, p], [, q]) => required(a, p) === required(b, q));
      if (renamed) {
        const [[from], [to, p]] = renamed;
        const what = required(b, p) ? `are refused (\`${to}\` is required)` : 'have it ignored';
        d.push(
          'PROMPT_ARGUMENT_RENAMED',
          'wire-breaking',
          'b',
          p,
          `prompt ${n}`,
          `prompt ${n}: argument renamed \`${from}\` → \`${to}\`: clients that send \`${from}\` ${what}`,
        );
        return;
      }
      for (const [g, p] of gone) d.push('PROMPT_ARGUMENT_NO_DELETE', 'wire-breaking', 'a', p, `prompt ${n}`, `prompt ${n} argument ${g} removed`);
      for (const [g, p] of come)
        if (required(b, p))
          d.push('PROMPT_ARGUMENT_ADDED_REQUIRED', 'wire-breaking', 'b', p, `prompt ${n}`, `prompt ${n} argument ${g} added, required`);
        else d.push('PROMPT_ARGUMENT_ADDED', 'compatible', 'b', p, `prompt ${n}`, `prompt ${n} argument ${g} added (optional)`);
    },
  );
}
