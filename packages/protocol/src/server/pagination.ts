/**
 * Cursor pagination for every list. Cursors are opaque to clients (base64url of a small JSON
 * object); anything we did not issue is answered with -32602.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { McpError } from '../jsonrpc/protocol.error.js';

/** One page of a list, with the cursor of the next page when there is one. @publicApi */
export interface Page<T> {
  /** The page's items, in list order. */
  items: T[];
  /** The cursor of the next page; absent on the last one. */
  nextCursor?: string;
}

function encode(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decode(cursor: unknown, length: number): number {
  if (typeof cursor !== 'string') throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "cursor" must be a string');
  let offset: unknown;
  try {
    offset = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown }).o;
  } catch {
    offset = undefined;
  }
  if (!Number.isSafeInteger(offset) || (offset as number) < 0 || (offset as number) > length) {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor: use a nextCursor from a previous page');
  }
  return offset as number;
}

/** The page of `items` that starts at `cursor` (the first page when undefined). */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const start = cursor === undefined ? 0 : decode(cursor, items.length);
  const end = start + pageSize;
  if (start === 0 && end >= items.length) return { items: items as T[] };
  const page: Page<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = encode(end);
  return page;
}
