/**
 * @module mcp/catalog/pagination — opaque cursors for the list methods
 * (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/pagination): `nextCursor` only when
 * more items follow; a cursor that does not decode, belongs to another method, or points past the end is -32602.
 */
import { fromBase64url, toBase64url } from '../../jsonrpc/bytes.ts';
import { ErrorCode, JsonRpcError } from '../../jsonrpc/message.ts';
import { reusable } from '../../jsonrpc/reusable.ts';

/** Items per page. */
export const DEFAULT_PAGE_SIZE = 100;
const MAX_CURSOR_BYTES = 2048;

const invalid = () => new JsonRpcError(ErrorCode.InvalidParams, 'Invalid pagination cursor');

function encode(method: string, offset: number, size: number): string {
  return `c1.${toBase64url(JSON.stringify([method, offset, size]))}`;
}

function decode(cursor: unknown, method: string, size: number): number {
  if (typeof cursor !== 'string') throw new JsonRpcError(ErrorCode.InvalidParams, 'Cursor must be a string');
  if (cursor.length > MAX_CURSOR_BYTES || !cursor.startsWith('c1.')) throw invalid();
  const bytes = fromBase64url(cursor.slice(3));
  if (!bytes) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed[0] !== method || !Number.isInteger(parsed[1])) throw invalid();
  if (parsed[1] < 0 || parsed[1] >= size) throw new JsonRpcError(ErrorCode.InvalidParams, 'Pagination cursor has expired');
  return parsed[1] as number;
}

/**
 * The list method `method` over `items`, which do not change while it is served (a catalog's, fixed when its
 * server is built): each page it starts (the first, and every `nextCursor` it writes) is made once, as a
 * reusable value (jsonrpc/reusable.ts), so that the result check and the writer of the answer do their work
 * once per page too. A page at another offset (a cursor this server did not write) is made on each request.
 */
export function pagedList<K extends string>(
  items: readonly unknown[],
  method: string,
  key: K,
  pageSize = DEFAULT_PAGE_SIZE,
): (cursor: unknown) => Readonly<Record<K, unknown[]> & { nextCursor?: string }> {
  const pages = new Map<number, Record<K, unknown[]> & { nextCursor?: string }>();
  const make = (offset: number) => {
    const page = items.slice(offset, offset + pageSize);
    const next = offset + pageSize;
    const made = { [key]: page } as Record<K, unknown[]> & { nextCursor?: string };
    if (next < items.length) made.nextCursor = encode(method, next, items.length);
    return made;
  };
  return (cursor) => {
    const offset = cursor === undefined ? 0 : decode(cursor, method, items.length);
    if (offset % pageSize !== 0) return make(offset);
    let page = pages.get(offset);
    if (!page) pages.set(offset, (page = reusable(make(offset))));
    return page;
  };
}
