/**
 * The generated packages as a user sees them: the dispatch table mirrors the manifest, its validators
 * narrow, and the typed maps and handler interfaces type-check (see types.check.ts, compiled by `npm test`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import * as revisions from '../../generated/revisions/index.ts';
import * as a2a from '../../generated/a2a-1.0/index.ts';
import * as m2024 from '../../generated/mcp-2024-11-05/index.ts';
import * as m2026 from '../../generated/mcp-2026-07-28/index.ts';
import { pinIds, ROOT } from '../helpers/project.ts';

/** Every pinned package, as schemas/pins.json lists them (a new pin is covered without editing this test). */
const PACKAGES: Record<string, typeof m2026 | typeof a2a> = Object.fromEntries(
  await Promise.all(pinIds().map(async (id) => [id, (await import(`../../generated/${id}/index.ts`)) as typeof m2026 | typeof a2a] as const)),
);

describe.each(Object.entries(PACKAGES))('%s', (id, pkg) => {
  const manifest = parse(readFileSync(join(ROOT, `schemas/manifest/${id}.yaml`), 'utf8')) as { methods: Record<string, Record<string, unknown>> };

  it('has one dispatch entry per manifest method, in manifest order', () => {
    expect(Object.keys(pkg.methods)).toEqual(Object.keys(manifest.methods));
    expect(pkg.pin.id).toBe(id);
  });

  it('gives every request a params and a result validator, and looks methods up', () => {
    for (const [name, entry] of Object.entries(pkg.methods) as [string, import('../../generated/mcp-2026-07-28/index.ts').MethodEntry][]) {
      expect(pkg.lookup(name)).toBe(entry);
      if (entry.kind === 'request') expect(typeof entry.result, name).toBe('function');
      if (manifest.methods[name]!['params']) expect(typeof entry.params, name).toBe('function');
    }
    expect(pkg.lookup('no/such/method')).toBeUndefined();
    expect(pkg.lookup('toString')).toBeUndefined();
  });
});

describe.each(Object.entries(PACKAGES))('%s protocol', (id, pkg) => {
  // A package has protocol.ts (and exports `protocol`) only when its schema fixes an error code, a `_meta`
  // key or a limit; the registry's entry (a served pin's) has the same tables, empty when it has none.
  it('is exported only when the schema fixes something, and equals the registry entry', () => {
    const protocol = (pkg as Record<string, unknown>)['protocol'] as Record<string, Record<string, unknown>> | undefined;
    expect(existsSync(join(ROOT, 'generated', id, 'protocol.ts')), 'protocol.ts').toBe(protocol !== undefined);
    if (protocol) expect(Object.values(protocol).some((table) => Object.keys(table).length > 0)).toBe(true);
    const entry = [...Object.values(revisions.mcp), ...Object.values(revisions.a2a)].find((e) => e.packageName === `@wiregen/${id}`);
    if (entry) expect(entry.protocol).toEqual(protocol ? { ...protocol } : { errors: {}, metaKeys: {}, limits: {} });
  });
});

describe('dispatch entries carry the manifest facts', () => {
  it('MCP 2026-07-28 tools/call', () => {
    const e = m2026.methods['tools/call'];
    expect({ kind: e.kind, direction: e.direction, paramsRequired: e.paramsRequired, capabilities: e.capabilities, inputRequired: e.inputRequired, cacheable: e.cacheable, mcpName: e.mcpName }).toEqual({
      kind: 'request', direction: 'client-to-server', paramsRequired: true, capabilities: [{ side: 'server', path: ['tools'] }], inputRequired: true, cacheable: false, mcpName: 'name',
    });
    expect(m2026.methods['tools/list'].cacheable).toBe(true);
    expect(m2026.methods['elicitation/create'].embedded).toBe(true);
  });

  it('MCP 2024-11-05 validates inline params through the pointer validator', () => {
    const e = m2024.methods['tools/call'];
    expect(e.params).toBe(m2024.validators.CallToolRequest_params);
    expect(e.params({ name: 'add', arguments: { a: 1 } })).toBe(true);
    expect(e.params({ arguments: {} })).toBe(false);
    expect(m2024.methods['tools/list'].paramsRequired).toBe(false);
  });

  it('A2A SendStreamingMessage streams over POST /message:stream', () => {
    const e = a2a.methods.SendStreamingMessage;
    expect(e.streaming).toBe(true);
    expect(e.http[0]).toEqual({ verb: 'POST', path: '/message:stream', body: '*' });
    expect(e.capabilities).toEqual([{ side: 'agent', path: ['streaming'] }]);
    expect(a2a.methods.DeleteTaskPushNotificationConfig.result({})).toBe(true);
    expect(a2a.methods.DeleteTaskPushNotificationConfig.result({ x: 1 })).toBe(false);
  });
});
