/**
 * @module evolve/spec/annotations — a tool's annotations between two versions of a server spec. The MCP
 * specification's ToolAnnotations (https://modelcontextprotocol.io/specification/2025-06-18/schema#toolannotations)
 * are hints a client may act on, each with a default when absent: readOnlyHint false, destructiveHint true,
 * idempotentHint false, openWorldHint true. Absent is the default, not false: dropping `destructiveHint: false`
 * makes the tool destructive.
 *
 * Class: a hint that moves away from its safe value (read-only, not destructive, idempotent, closed world) is
 * wire-breaking. Clients decide on these hints whether to call a tool without asking the user, or to retry it;
 * such a client changes what it does with no change of its own code, as it would for a changed field on the
 * wire. A hint that moves toward its safe value is compatible: a client that asked before may now ask less.
 */
import { escapePointerToken } from '../../errors.ts';
import { isObject, type Json, type JsonObject } from '../../load/schema.ts';
import type { SpecDiff } from './compare.ts';

/** Each hint: its default when absent, its safe value, and what a client stops relying on when it leaves it. */
const HINTS: readonly { key: string; absent: boolean; safe: boolean; lost: string; gained: string; why: string }[] = [
  {
    key: 'readOnlyHint',
    absent: false,
    safe: true,
    lost: 'no longer read-only',
    gained: 'now read-only',
    why: 'clients that call read-only tools without asking the user now ask, or refuse',
  },
  {
    key: 'destructiveHint',
    absent: true,
    safe: false,
    lost: 'now destructive',
    gained: 'no longer destructive',
    why: 'clients that confirm destructive calls with the user now ask before each call',
  },
  {
    key: 'idempotentHint',
    absent: false,
    safe: true,
    lost: 'no longer idempotent',
    gained: 'now idempotent',
    why: 'clients that retry idempotent calls no longer retry it',
  },
  {
    key: 'openWorldHint',
    absent: true,
    safe: false,
    lost: 'now open-world',
    gained: 'no longer open-world',
    why: 'clients that allow closed-world tools only now ask, or refuse',
  },
];

/** `true`, or `(absent: false)`. */
const show = (v: Json | undefined, absent: boolean) => (typeof v === 'boolean' ? String(v) : `(absent: ${absent})`);

/**
 * The hints of tool `name` (`x` before, `y` after, `ptr` its pointer in the newer spec) whose value, defaults
 * applied, changed.
 */
export function diffAnnotations(d: SpecDiff, x: JsonObject, y: JsonObject, ptr: string, name: string): void {
  const [ax, ay] = [x['annotations'], y['annotations']];
  const hints = (a: Json | undefined): JsonObject => (isObject(a) ? a : {});
  // destructiveHint and idempotentHint are "meaningful only when readOnlyHint == false" (ToolAnnotations).
  const readOnly = (a: Json | undefined) => hints(a)['readOnlyHint'] === true;
  for (const h of HINTS) {
    if (h.key !== 'readOnlyHint' && h.key !== 'openWorldHint' && readOnly(ax) && readOnly(ay)) continue;
    const [u, v] = [hints(ax)[h.key], hints(ay)[h.key]];
    const was = typeof u === 'boolean' ? u : h.absent;
    const now = typeof v === 'boolean' ? v : h.absent;
    if (was === now) continue;
    const lost = was === h.safe;
    const at = v !== undefined ? `${ptr}/annotations/${escapePointerToken(h.key)}` : isObject(ay) ? `${ptr}/annotations` : ptr;
    d.push(
      'TOOL_ANNOTATION_SAME',
      lost ? 'wire-breaking' : 'compatible',
      'b',
      at,
      `tool ${name}`,
      `tool ${name} is ${lost ? h.lost : h.gained} (${h.key} ${show(u, h.absent)} → ${show(v, h.absent)})${lost ? `: ${h.why}` : ''}`,
    );
  }
}
