/**
 * @module serve/agent — what `wiregen serve <agent> --http <port>` adds to an A2A agent: the webhook hosts of
 * `--webhook-host` (beside the spec's `webhooks`), and where its cards say it is reached (`--public-url`, else
 * the address it listens on: a stock A2A client picks its endpoint from the card).
 */
import type { A2aServer } from '@wiregen/runtime/a2a';
import { CliError } from '../commands/command.ts';

/** A host name, or an IPv6 address in brackets: what a webhook URL's hostname is compared with. */
const HOST = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;

/** The hosts given, lower case; a CliError (exit 2) naming one that is not a host name. */
export function checkWebhookHosts(hosts: readonly string[]): string[] {
  return hosts.map((given) => {
    const host = given.toLowerCase();
    if (!HOST.test(host))
      throw new CliError([`wiregen serve: --webhook-host ${JSON.stringify(given)} is not a host name (e.g. hooks.example.com, 127.0.0.1, [::1])`]);
    return host;
  });
}

/** `server` with `hosts` allowed for webhooks too: a new A2aServer of the same options (the given one is not started). */
export async function withWebhookHosts(server: A2aServer, hosts: readonly string[]): Promise<A2aServer> {
  const { A2aServer } = await import('@wiregen/runtime/a2a');
  const push = server.options.push ?? {};
  const allowedHosts = [...new Set([...(push.allowedHosts ?? []), ...hosts])];
  return new A2aServer({ ...server.options, push: { ...push, allowedHosts } });
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
