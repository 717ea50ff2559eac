/**
 * @module mcp/catalog/pagination — opaque cursors for the list methods
 * (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/pagination): `nextCursor` only when
 * more items follow; a cursor that does not decode, belongs to another method, or points past the end is -32602.
 */
import { fromBase64url, toBase64url } from '../../jsonrpc/bytes.ts';
import { ErrorCode, JsonRpcError } from '../../jsonrpc/message.ts';

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

/** One page of `items` for `method`, with the `nextCursor` to ask for the next. */
export function paginate<T>(items: readonly T[], method: string, cursor: unknown, pageSize = DEFAULT_PAGE_SIZE): { page: T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decode(cursor, method, items.length);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return next < items.length ? { page, nextCursor: encode(method, next, items.length) } : { page };
}
