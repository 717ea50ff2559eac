/**
 * @module emit/dispatch — dispatch.ts (the method table), handlers.ts (typed handler interfaces) and
 * index.ts (the package's re-exports), rendered from Handlebars templates over the plan.
 */
import type { MethodPlan, PinPlan } from '../plan/index.ts';
import { hasProtocol, protocolTables } from './protocol.ts';
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
    mcp: plan.protocol === 'mcp',
    serverMethods: withReturns(receivedBy('server')),
    clientMethods: withReturns(receivedBy('client')),
  });
}

/**
 * Whether the pin gets a generated `Client` (client.ts): A2A does (the A2A transports serve it). MCP does not:
 * one client, the runtime's McpClient, speaks both eras, typed by the newest pin's `CallParams`/`CallResult`.
 */
export function hasClient(plan: PinPlan): boolean {
  return plan.protocol !== 'mcp';
}

export function emitIndex(plan: PinPlan): string {
  return render('index.ts', { ...plan, title: title(plan), client: hasClient(plan), hasProtocol: hasProtocol(plan) });
}

/** The era a revision belongs to, read off its methods. */
function eraOf(plan: PinPlan): 'handshake' | 'stateless' | 'rpc' {
  if (plan.protocol === 'a2a') return 'rpc';
  const names = new Set(plan.methods.map((m) => m.method));
  if (names.has('initialize')) return 'handshake';
  if (names.has('server/discover')) return 'stateless';
  throw new Error(`${plan.id}: neither initialize nor server/discover in the manifest; cannot tell its era`);
}

/**
 * generated/revisions/index.ts (@wiregen/revisions): every package by protocol and revision, with its era. `mcp` is the MCP plans oldest
 * first (generate.ts sorts them once, and checks the samples against the last).
 */
export function emitRegistry(plans: readonly PinPlan[], mcp: readonly PinPlan[]): string {
  const entry = (p: PinPlan) => ({
    packageName: p.packageName,
    revision: p.revision,
    era: eraOf(p),
    methods: p.methods.map((m) => m.method),
    protocol: JSON.stringify(protocolTables(p)),
  });
  const mcpEntries = mcp.map(entry);
  const handshake = mcpEntries.filter((p) => p.era === 'handshake').map((p) => p.revision);
  const stateless = mcpEntries.filter((p) => p.era === 'stateless').map((p) => p.revision);
  return render('registry.ts', {
    mcp: mcpEntries,
    a2a: plans.filter((p) => p.protocol === 'a2a').map(entry),
    handshake,
    stateless,
    latest: JSON.stringify({ handshake: handshake.at(-1), stateless: stateless.at(-1) }),
  });
}

/** `tools/call` → `toolsCall`, `SendMessage` → `sendMessage`: the client method's name. */
function clientMethodName(method: string): string {
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
    return { method: m.method, name, streaming: m.streaming, paramsOptional: m.paramsOptional };
  });
  return render('client.ts', {
    title: title(plan),
    methods: rows,
    anyStreaming: rows.some((r) => r.streaming),
  });
}
