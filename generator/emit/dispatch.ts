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
