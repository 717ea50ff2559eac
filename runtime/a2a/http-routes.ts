/**
 * @module a2a/http-routes — the request targets an A2A agent serves: the HTTP+JSON routes of the proto's
 * google.api.http annotations (from the generated dispatch table's `http` rows), compiled to patterns under a
 * prefix, and the parsing of request targets and interface URLs.
 */
import type { MethodEntry } from '@wiregen/a2a-1.0';
import { protoJsonName } from './wire-order.ts';

/** The public agent card's path (https://a2a-protocol.org/latest/specification/, "Agent Discovery"). */
export const CARD_PATH = '/.well-known/agent-card.json';

/** What the handler reads of a request target. */
export interface Target {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

const NO_QUERY = new URLSearchParams();

/** The request target; a plain path (the usual JSON-RPC POST) skips the URL parser. */
export function targetOf(raw: string): Target {
  return /^\/[\w\-~/:@!$&'()*+,;=]*$/.test(raw) && !raw.includes('//') ? { pathname: raw, searchParams: NO_QUERY } : new URL(raw, 'http://localhost');
}

export interface Route {
  readonly method: string;
  readonly entry: MethodEntry;
  readonly verb: string;
  readonly pattern: RegExp;
  /** Path variables, as params fields (ProtoJSON camelCase). */
  readonly names: readonly string[];
  readonly body: boolean;
}

/** `/tasks/{task_id=*}/pushNotificationConfigs/{id=*}` → a regex and the params fields it fills. */
export function compileRoute(prefix: string, method: string, entry: MethodEntry, route: MethodEntry['http'][number]): Route {
  const names: string[] = [];
  const source = route.path.replace(/\{([a-z_]+)(?:=\*)?\}|([^{]+)/g, (_, name: string | undefined, literal: string | undefined) => {
    if (name) {
      names.push(protoJsonName(name));
      // One segment, without the `:verb` suffix of a custom method (`/tasks/{id}` is not `/tasks/x:subscribe`).
      return '([^/:]+)';
    }
    return literal!.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  });
  return { method, entry, verb: route.verb, pattern: new RegExp(`^${prefix.replace(/\/$/, '')}${source}$`), names, body: route.body === '*' };
}

/** The path of an interface URL, without a trailing slash; undefined when there is no usable URL. */
export function pathOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname.replace(/\/$/, '') || '/';
  } catch {
    return undefined;
  }
}
