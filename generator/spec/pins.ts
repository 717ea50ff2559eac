/**
 * @module spec/pins — the pins a spec is generated for, read from the generated registry
 * (`@wiregen/revisions`): each pin's id, protocol, revision and package, and, loaded on first use, the
 * precompiled validators of the definitions a spec's items must satisfy. The CLI checks a spec with the
 * generated pin packages it depends on, so it needs no `schemas/` folder.
 */
import { a2a, mcp } from '@wiregen/revisions';
import type { Validator } from '@wiregen/core';

/** What a spec describes: an MCP server (a catalog) or an A2A agent (a card). */
export type SpecKind = 'server' | 'agent';

/** The definitions a spec's items are checked against, by name (MCP `Tool`…, A2A `AgentCard`). */
export type PinValidators = Readonly<Record<string, Validator<unknown>>>;

export interface SpecPin {
  /** `mcp-2026-07-28`, `a2a-1.0`. */
  readonly id: string;
  readonly protocol: 'mcp' | 'a2a';
  readonly revision: string;
  /** The package the generated code imports its types from, e.g. `@wiregen/a2a-1.0`. */
  readonly packageName: string;
  /** The validators of the definitions a spec of this protocol is checked against. */
  validators(): Promise<PinValidators>;
}

/** The MCP definitions the items of a server spec must be (the list sections' item types). */
export const MCP_ITEM_DEFS = ['Tool', 'Resource', 'ResourceTemplate', 'Prompt'] as const;

const byRevision = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every pin, MCP oldest first, then A2A. */
export function specPins(): readonly SpecPin[] {
  const mcpPins = (Object.keys(mcp) as (keyof typeof mcp)[]).sort(byRevision).map((revision): SpecPin => ({
    id: `mcp-${revision}`,
    protocol: 'mcp',
    revision,
    packageName: mcp[revision].packageName,
    validators: async () => {
      const { validators } = await mcp[revision].load();
      return { Tool: validators.Tool, Resource: validators.Resource, ResourceTemplate: validators.ResourceTemplate, Prompt: validators.Prompt };
    },
  }));
  const a2aPins = (Object.keys(a2a) as (keyof typeof a2a)[]).sort(byRevision).map((revision): SpecPin => ({
    id: `a2a-${revision}`,
    protocol: 'a2a',
    revision,
    packageName: a2a[revision].packageName,
    validators: async () => ({ AgentCard: (await a2a[revision].load()).validators.AgentCard }),
  }));
  return [...mcpPins, ...a2aPins];
}

/** The protocol a kind of spec speaks. */
export const protocolOf = (kind: SpecKind): 'mcp' | 'a2a' => (kind === 'server' ? 'mcp' : 'a2a');

/** The pin a spec gets without `--pin`: the newest MCP revision for a server, the newest A2A one for an agent. */
export function defaultPin(kind: SpecKind): SpecPin {
  const pin = specPins()
    .filter((p) => p.protocol === protocolOf(kind))
    .at(-1);
  if (!pin) throw new Error(`no ${protocolOf(kind)} pin is generated`);
  return pin;
}

export function findPin(id: string): SpecPin | undefined {
  return specPins().find((p) => p.id === id);
}
