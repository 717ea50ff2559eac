/**
 * @module test/helpers/renumber — renumbers request ids and progress tokens in order of appearance, so two
 * sessions that chose different ids compare equal (the recordings are "compared as JSON with request IDs (and
 * progress tokens) renumbered in order of appearance: c1, c2… for the client's requests, s1… for the server's").
 *
 * One `Renumbering` per message stream (one for what was recorded, one for what the server under test
 * did). Feed it every message of the stream in order, whichever side sent it:
 * - a request's `id` gets the next number of its sender's table (client → c1, c2…; server → s1, s2…);
 * - a response's `id` maps through the table of the side that sent the request (the other side), since a
 *   response carries the id of the request it answers. An id that side never sent becomes
 *   `"unknown:<json>"` so it can never equal a real one by accident; a null id stays null;
 * - `params.progressToken` and `params._meta.progressToken` map through the client table when they equal a
 *   client request id (the SDK uses the request id as the token), otherwise through their own p1, p2…;
 * - `params.requestId` of `notifications/cancelled` maps through its sender's table (the sender of a
 *   cancellation is the side that made the request).
 *
 * Ids are keyed by their JSON text, so the string "1" and the integer 1 are different ids, as in JSON-RPC.
 * Nothing is mutated: `apply` returns a renumbered copy.
 */
import type { Side } from './recordings.ts';

export interface Renumbering {
  /** The renumbered copy of `message`, which `from` sent; registers any new request id or token. */
  apply(from: Side, message: unknown): unknown;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A table that hands out `<prefix>1`, `<prefix>2`… to values in order of first appearance. */
function sequence(prefix: string) {
  const seen = new Map<string, string>();
  return {
    has: (v: unknown) => seen.has(JSON.stringify(v)),
    get: (v: unknown) => seen.get(JSON.stringify(v)),
    assign(v: unknown): string {
      const key = JSON.stringify(v);
      let name = seen.get(key);
      if (name === undefined) seen.set(key, (name = `${prefix}${seen.size + 1}`));
      return name;
    },
  };
}

export function createRenumbering(): Renumbering {
  const requests = { client: sequence('c'), server: sequence('s') };
  const progress = sequence('p');
  const other = (side: Side): Side => (side === 'client' ? 'server' : 'client');

  /** An id that refers to a request already seen (a response, a cancellation). */
  const refer = (table: ReturnType<typeof sequence>, id: unknown) => (id === null ? null : (table.get(id) ?? `unknown:${JSON.stringify(id)}`));
  const token = (t: unknown) => requests.client.get(t) ?? progress.assign(t);

  function renumberParams(from: Side, method: unknown, params: Json): Json {
    const out: Json = { ...params };
    if ('progressToken' in params) out['progressToken'] = token(params['progressToken']);
    const meta = params['_meta'];
    if (isObject(meta) && 'progressToken' in meta) out['_meta'] = { ...meta, progressToken: token(meta['progressToken']) };
    if (method === 'notifications/cancelled' && 'requestId' in params) out['requestId'] = refer(requests[from], params['requestId']);
    return out;
  }

  return {
    apply(from, message) {
      if (!isObject(message)) return structuredClone(message);
      const out: Json = structuredClone(message);
      const method = message['method'];
      const id = message['id'];
      if ('id' in message && id !== null) {
        if (typeof method === 'string') out['id'] = requests[from].assign(id);
        else if (!('method' in message)) out['id'] = refer(requests[other(from)], id);
      }
      // Ids first, then tokens: a request whose token is its own id maps the token to that id's new name.
      if (typeof method === 'string' && isObject(message['params'])) out['params'] = renumberParams(from, method, out['params'] as Json);
      return out;
    },
  };
}
