/**
 * @module a2a/postgres/errors — telling a database that went away from a statement that failed: connection
 * errors (refused, reset, ended) and the SQLSTATEs of a server shutting down, starting up or terminating the
 * session (https://www.postgresql.org/docs/current/errcodes-appendix.html, classes 08 and 57P) become
 * StoreUnavailableError, which the A2A server answers as retryable and recovers from.
 */
import { StoreUnavailableError } from '../store.ts';

/** Connection exceptions (08…), admin/crash shutdown, cannot connect now, database dropped (57P01–57P04). */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-4])$/;
/** Socket errors of a server that is down or went away. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);
/** node-postgres' own messages for a connection that ended or timed out (pg-pool, pg/lib/client.js). */
const ENDED =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i;

/** True when `err` says the server cannot be reached, rather than that the statement itself failed. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return ENDED.test(err.message);
}

/** `err` as StoreUnavailableError naming `database` when it is a connection error; otherwise `err` itself. */
export function unavailableOr(err: unknown, database: string): unknown {
  if (err instanceof StoreUnavailableError || !isConnectionError(err)) return err;
  return new StoreUnavailableError(`${database} is unavailable: ${(err as Error).message}`, { cause: err });
}
