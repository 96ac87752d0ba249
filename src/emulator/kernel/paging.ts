/**
 * Cursor paging of the description's list endpoints: `limit` (1…100, default 20) and an opaque
 * `cursor`, answered as `{data, hasMore, nextCursor?, totalCount}`. The cursor is the offset of the
 * next page, base64url-encoded: lists are ordered and append-mostly, which is all the emulator needs.
 */
import type { Fields } from './fields.js';

export interface PageRequest {
  limit: number;
  offset: number;
}

const CURSOR = /^[A-Za-z0-9_-]{1,16}$/;

/** Reads `limit` and `cursor` into f's error list (so one 400 names every bad parameter). */
export function readPage(f: Fields): PageRequest {
  const limitText = f.string('limit', { pattern: /^\d{1,3}$/ });
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (limitText !== undefined && (limit < 1 || limit > 100)) f.add('limit', 'limit must be between 1 and 100');
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
 * `limit` and `cursor` of a list whose operation declares no 400 (`GET /agents/me/actions`): a limit
 * outside 1…100 is brought into it, an unreadable limit or cursor is the default (20, first page).
 */
export function lenientPage(query: URLSearchParams): PageRequest {
  const limitText = query.get('limit');
  const asked = limitText !== null && /^-?\d{1,9}$/.test(limitText) ? Number(limitText) : 20;
  const cursor = query.get('cursor');
  const offset = cursor !== null && CURSOR.test(cursor) ? cursorOffset(cursor) : 0;
  return { limit: Math.min(100, Math.max(1, asked)), offset: offset ?? 0 };
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
