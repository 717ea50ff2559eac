/**
 * @module mcp/stateless/session — the 2026-07-28 era's side of a connection ({@link StatelessSession}): nothing
 * is negotiated, each request is served on its own (stateless/request.ts), change notifications go to the
 * listen streams held on the connection (server/subscriptions.ts).
 */
import type { IncomingRequest } from '../../jsonrpc/incoming.ts';
import type { EraSession } from '../server/connection.ts';
import type { Serving } from '../server/serving.ts';
import { listChangedToListens, resourceUpdatedToListens, type ListKind } from '../server/subscriptions.ts';
import { serveStateless } from './request.ts';

/**
 * The 2026-07-28 era of a connection: nothing is negotiated, every request carries what it needs; change
 * notifications go to the listen streams (subscriptions.ts).
 */
export class StatelessSession implements EraSession {
  readonly era = 'stateless';
  readonly negotiatedVersion = undefined;
  readonly #conn: Serving;

  constructor(conn: Serving) {
    this.#conn = conn;
  }

  serve(req: IncomingRequest): Promise<unknown> {
    return serveStateless(this.#conn, req);
  }

  notified(): boolean {
    return false;
  }

  deliverListChanged(kind: ListKind): void {
    listChangedToListens(this.#conn, kind);
  }

  deliverResourceUpdated(uri: string): void {
    resourceUpdatedToListens(this.#conn, uri);
  }
}
