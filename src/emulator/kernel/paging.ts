/**
 * Cursor paging of the description's list endpoints: `limit` (1…100, default 20) and an opaque
 * `cursor`, answered as `{data, hasMore, nextCursor?, totalCount}`. The cursor is the offset of the
 * next page, base64url-encoded: lists are ordered and append-mostly, which is all the emulator needs.
 * The description's rules on both (limit an integer in 1…100, cursor a string) are the schema check's,
 * on every paged operation, before any handler runs (test/integration/emulator/kernel/paging.test.ts
 * proves it for each); what is left here is the emulator's own: a cursor is one it returned.
 */
import type { Fields } from './fields.js';

export interface PageRequest {
  limit: number;
  offset: number;
}

/** The description's default page size. */
const DEFAULT_LIMIT = 20;
const CURSOR = /^[A-Za-z0-9_-]{1,16}$/;

/** Reads `limit` and `cursor` into f's error list (so one 400 names every bad parameter). */
export function readPage(f: Fields): PageRequest {
  const limitText = f.string('limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  const cursor = f.string('cursor', { pattern: CURSOR });
  const offset = cursor === undefined ? 0 : cursorOffset(cursor);
  if (offset === undefined) f.add('cursor', 'cursor is not one this server returned');
  return { limit, offset: offset ?? 0 };
}

/** The offset a cursor of CURSOR's shape encodes; undefined when it is not one this server returned. */
function cursorOffset(cursor: string): number | undefined {
  const offset = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  return Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
}

/**
 * `limit` and `cursor` of a list whose operation declares no 400 (`GET /agents/me/actions`): the
 * schema check still refuses a limit outside the description's bounds (the spec's 400 on every
 * operation), but the emulator's own rule is not made a 400 here: a cursor it did not return is
 * the first page.
 */
export function lenientPage(query: URLSearchParams): PageRequest {
  const limitText = query.get('limit');
  const cursor = query.get('cursor');
  const offset = cursor !== null && CURSOR.test(cursor) ? cursorOffset(cursor) : 0;
  return { limit: limitText === null ? DEFAULT_LIMIT : Number(limitText), offset: offset ?? 0 };
}

export function pageOf<T>(
  items: readonly T[],
  page: PageRequest,
): { data: T[]; hasMore: boolean; nextCursor?: string; totalCount: number } {
  const end = page.offset + page.limit;
  const data = items.slice(page.offset, end);
  const hasMore = end < items.length;
  return {
    data,
    hasMore,
    ...(hasMore ? { nextCursor: Buffer.from(String(end)).toString('base64url') } : {}),
    totalCount: items.length,
  };
}
