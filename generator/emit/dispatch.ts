/**
 * @module emit/dispatch — dispatch.ts (the method table), handlers.ts (typed handler interfaces) and
 * index.ts (the package's re-exports), rendered from Handlebars templates over the plan.
 */
import type { MethodPlan, PinPlan } from '../plan/index.ts';
import { render } from './templates.ts';

export function title(plan: PinPlan): string {
  return `${plan.protocol === 'mcp' ? 'MCP' : 'A2A'} ${plan.revision}`;
}

export function emitDispatch(plan: PinPlan): string {
  return render('dispatch.ts', plan);
}

function returns(m: MethodPlan): string {
  const r = `HandlerResult<${JSON.stringify(m.method)}>`;
  if (m.kind === 'notification') return 'void | Promise<void>';
  return m.streaming ? r : `${r} | Promise<${r}>`;
}

export function emitHandlers(plan: PinPlan): string {
  const withReturns = (ms: readonly MethodPlan[]) => ms.map((m) => ({ ...m, returns: returns(m) }));
  const receivedBy = (side: 'server' | 'client') =>
    plan.methods.filter((m) => m.direction === 'both' || m.direction === (side === 'server' ? 'client-to-server' : 'server-to-client'));
  return render('handlers.ts', {
    title: title(plan),
    serverMethods: withReturns(receivedBy('server')),
    clientMethods: withReturns(receivedBy('client')),
  });
}

export function emitIndex(plan: PinPlan): string {
  return render('index.ts', { ...plan, title: title(plan) });
}

/** The era a revision belongs to, read off its methods. */
export function eraOf(plan: PinPlan): 'handshake' | 'stateless' | 'rpc' {
  if (plan.protocol === 'a2a') return 'rpc';
  const names = new Set(plan.methods.map((m) => m.method));
  if (names.has('initialize')) return 'handshake';
  if (names.has('server/discover')) return 'stateless';
  throw new Error(`${plan.id}: neither initialize nor server/discover in the manifest; cannot tell its era`);
}

/** generated/index.ts: every package by protocol and revision, with its era. */
export function emitRegistry(plans: readonly PinPlan[]): string {
  const packages = plans.map((p) => ({ id: p.id, revision: p.revision, ident: p.id.replace(/[^A-Za-z0-9]/g, '_'), era: eraOf(p) }));
  const byDate = (a: { revision: string }, b: { revision: string }) => (a.revision < b.revision ? -1 : 1);
  const mcp = packages.filter((p) => p.id.startsWith('mcp-')).sort(byDate);
  return render('registry.ts', {
    packages,
    mcp,
    a2a: packages.filter((p) => p.id.startsWith('a2a-')),
    handshake: mcp.filter((p) => p.era === 'handshake').map((p) => p.revision),
    stateless: mcp.filter((p) => p.era === 'stateless').map((p) => p.revision),
  });
}

/** The `required` list of the schema a params reference points at (following local $refs). */
function requiredFields(plan: PinPlan, ref: { def: string; tokens: readonly string[] }): string[] {
  let node: unknown = plan.defs[ref.def];
  for (const t of ref.tokens) node = (node as Record<string, unknown> | undefined)?.[t];
  for (let i = 0; i < 8; i++) {
    const target = (node as { $ref?: string } | undefined)?.$ref;
    if (typeof target !== 'string') break;
    node = plan.defs[target.split('/').pop()!];
  }
  const required = (node as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) ? (required as string[]) : [];
}

/** `tools/call` → `toolsCall`, `SendMessage` → `sendMessage`: the client method's name. */
export function clientMethodName(method: string): string {
  const camel = method.replace(/[/_.-]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
  return camel.charAt(0).toLowerCase() + camel.slice(1);
}

/** client.ts: one typed method per request a client sends (not the ones carried inside input_required). */
export function emitClient(plan: PinPlan): string {
  const sent = plan.methods.filter((m) => m.kind === 'request' && !m.embedded && (m.direction === 'client-to-server' || m.direction === 'both'));
  const names = new Set<string>();
  const rows = sent.map((m) => {
    const name = clientMethodName(m.method);
    if (names.has(name)) throw new Error(`${plan.id}: two methods map to the client method ${name}`);
    names.add(name);
    // Params may be left out when nothing in them is required (the MCP client adds _meta itself).
    const required = m.params ? requiredFields(plan, m.params.ref).filter((f) => f !== '_meta') : [];
    return { method: m.method, name, streaming: m.streaming, paramsRequired: required.length > 0 };
  });
  return render('client.ts', {
    title: title(plan),
    transportHint: plan.protocol === 'mcp' ? 'runtime/mcp/client.ts' : 'runtime/a2a/client.ts',
    methods: rows,
  });
}
