/**
 * @module a2a/http-routes — the request targets an A2A agent serves: the HTTP+JSON routes of the proto's
 * google.api.http annotations (from the generated dispatch table's `http` rows), compiled to patterns under a
 * prefix, and the parsing of request targets and interface URLs.
 */
import type { AgentCard, MethodEntry } from '@wiregen/a2a-1.0';
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

/**
 * `card` as reached at `base` (an http(s) URL: the listening origin, or a public URL in front of a proxy): each
 * interface URL keeps its path (and query) under `base`'s origin and path, so `/a2a` at
 * `https://agents.example.com/research` is advertised as `https://agents.example.com/research/a2a`. A
 * client picks its endpoint from the card (https://a2a-protocol.org/latest/specification/, "Agent Discovery"),
 * so the card must name where the agent answers. Throws a one-line error for a base that is not an http(s) URL.
 */
export function cardAt(card: AgentCard, base: string): AgentCard {
  let at: URL;
  try {
    at = new URL(base);
  } catch {
    throw new Error(`publicUrl ${JSON.stringify(base)} is not an absolute URL`);
  }
  if (at.protocol !== 'http:' && at.protocol !== 'https:') throw new Error(`publicUrl ${JSON.stringify(base)} is not an http(s) URL`);
  const prefix = `${at.origin}${at.pathname.replace(/\/$/, '')}`;
  const moved = (url: string): string => {
    try {
      const own = new URL(url);
      return `${prefix}${own.pathname === '/' ? '' : own.pathname}${own.search}`;
    } catch {
      return url;
    }
  };
  return { ...card, supportedInterfaces: card.supportedInterfaces.map((i) => ({ ...i, url: moved(i.url) })) };
}
