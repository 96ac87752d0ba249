/**
 * The service's list page: `limit` (1…100, default 20) and `cursor` in the query, and
 * `{data, hasMore, nextCursor (only when hasMore), totalCount}` back (api-facts "Pagination").
 * Records are listed in creation order; a cursor names the last record of the previous page, so
 * records added meanwhile neither repeat nor vanish. A cursor is opaque to clients.
 */
import { invalidInput } from './errors.js';
import type { Fields } from './fields.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Paging {
  limit: number;
  /** The id the previous page ended with. */
  after?: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

const encode = (id: string): string => Buffer.from(JSON.stringify({ after: id }), 'utf8').toString('base64url');

function decode(cursor: string): string | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const after = (value as { after?: unknown } | null)?.after;
    return typeof after === 'string' ? after : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads `limit` and `cursor` from query fields (strings); bad values join the other field errors.
 * Call before `f.done()`.
 */
export function readPaging(f: Fields): Paging {
  let limit = DEFAULT_PAGE_SIZE;
  const rawLimit = f.raw('limit');
  if (rawLimit !== undefined) {
    const n = typeof rawLimit === 'string' && /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (n >= 1 && n <= MAX_PAGE_SIZE) limit = n;
    else f.add('limit', `limit must be an integer between 1 and ${MAX_PAGE_SIZE}`);
  }
  const cursor = f.string('cursor', { minLength: 1, maxLength: 512 });
  let after: string | undefined;
  if (cursor !== undefined) {
    after = decode(cursor);
    if (after === undefined) f.add('cursor', 'cursor is not one this server returned as nextCursor');
  }
  return after === undefined ? { limit } : { limit, after };
}

/**
 * One page of records (already filtered, in creation order). A cursor whose record is not in this
 * list (another list's cursor, or other filters) is 400 naming `cursor`.
 */
export function pageOf<T extends { id: string }, R>(records: readonly T[], paging: Paging, render: (r: T) => R): Page<R> {
  let start = 0;
  if (paging.after !== undefined) {
    const at = records.findIndex((r) => r.id === paging.after);
    if (at < 0) throw invalidInput([{ field: 'cursor', message: 'cursor does not belong to this list with these filters' }]);
    start = at + 1;
  }
  const slice = records.slice(start, start + paging.limit);
  const hasMore = start + slice.length < records.length;
  const page: Page<R> = { data: slice.map(render), hasMore, totalCount: records.length };
  if (hasMore) page.nextCursor = encode(slice.at(-1)!.id);
  return page;
}
