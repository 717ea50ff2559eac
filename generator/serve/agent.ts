/**
 * @module serve/agent — what `wiregen serve <agent> --http <port>` adds to an A2A agent: the webhook hosts of
 * `--webhook-host` (beside the spec's `webhooks`), and where its cards say it is reached (`--public-url`, else
 * the address it listens on: a stock A2A client picks its endpoint from the card); and an agent that cannot start
 * because its card requires a security scheme nothing checks (runtime/a2a/security.ts), as one line, exit 2.
 */
import { readFileSync } from 'node:fs';
import type { A2aServer, A2aServerOptions } from '@wiregen/runtime/a2a';
import { CliError } from '../commands/command.ts';

/** What a webhook host may be: the agent spec format's own pattern for `webhooks.allowedHosts` items (read when a host is given). */
let hostRe: RegExp | undefined;
function hostPattern(): RegExp {
  type Spec = { properties: { webhooks: { properties: { allowedHosts: { items: { pattern: string } } } } } };
  if (!hostRe) {
    const spec = JSON.parse(readFileSync(new URL('../spec/agent.schema.json', import.meta.url), 'utf8')) as Spec;
    hostRe = new RegExp(spec.properties.webhooks.properties.allowedHosts.items.pattern);
  }
  return hostRe;
}

/** The hosts given, lower case; a CliError (exit 2) naming one that is not a host name. */
export function checkWebhookHosts(hosts: readonly string[]): string[] {
  return hosts.map((given) => {
    const host = given.toLowerCase();
    if (!hostPattern().test(host))
      throw new CliError([`wiregen serve: --webhook-host ${JSON.stringify(given)} is not a host name (e.g. hooks.example.com, 127.0.0.1, [::1])`]);
    return host;
  });
}

/** The push options of `options` with `hosts` allowed for webhooks too (given to the one A2aServer serve builds). */
export function withWebhookHosts(options: A2aServerOptions, hosts: readonly string[]): Pick<A2aServerOptions, 'push'> {
  if (!hosts.length) return {};
  const push = options.push ?? {};
  return { push: { ...push, allowedHosts: [...new Set([...(push.allowedHosts ?? []), ...hosts])] } };
}

/** The base URL `--public-url` gives: an absolute http(s) URL, else a CliError (exit 2). */
export function checkPublicUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new CliError([`wiregen serve: --public-url ${JSON.stringify(given)} is not an absolute URL (e.g. https://agents.example.com/research)`]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError([`wiregen serve: --public-url ${JSON.stringify(given)}: give an http:// or https:// URL`]);
  if (url.search || url.hash || url.username || url.password)
    throw new CliError([`wiregen serve: --public-url ${JSON.stringify(given)}: give a base URL without query, fragment or credentials`]);
  return given;
}

/** Advertises `server` at `base`; a line on stderr when its card is signed and so keeps the URLs it was signed with. */
export function advertise(server: A2aServer, base: string): void {
  if (!server.advertiseAt(base))
    process.stderr.write(
      `wiregen serve: the agent card is signed: it is served as signed, naming ${server.card.supportedInterfaces.map((i) => i.url).join(', ')}\n`,
    );
}

/**
 * Rethrows what refused to serve an agent: an AuthError('configuration') of the runtime (a card requiring a scheme
 * with no verifier, runtime/a2a/security.ts) as its one line, exit 2; anything else as it is.
 */
export function refusedStart(err: unknown): never {
  const e = err as { name?: unknown; check?: unknown; message?: unknown } | undefined;
  if (e?.name === 'AuthError' && e.check === 'configuration') throw new CliError([`wiregen serve: ${String(e.message)}`]);
  throw err;
}
