/**
 * Pagination of raw API calls: lists answer `{data, hasMore, nextCursor}`; the next page is the same
 * request with `cursor=<nextCursor>`. Pages are handed over as they arrive so a line-per-item output can
 * stream a long list, and a cursor the service repeats ends the walk with an error instead of a loop.
 */
import type { ApiClient } from '../http/types.js';
import { ApiError, UsageError } from '../errors.js';

export interface PageOptions {
  method: string;
  /** Normalized path with its query, without a cursor. */
  path: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Called with each page's items, in order. */
  onItems(items: unknown[]): void;
}

function withCursor(path: string, cursor: string | undefined): string {
  if (cursor === undefined) return path;
  const [base, query = ''] = path.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('cursor', cursor);
  return `${base}?${params.toString()}`;
}

/** Walks every page; resolves to the number of pages read. */
export async function paginate(client: ApiClient, opts: PageOptions): Promise<number> {
  if (opts.method !== 'GET')
    throw new UsageError('Pagination works with GET only.', { input: 'paginate', reason: 'GET_ONLY' });
  if (/[?&]cursor=/.test(opts.path))
    throw new UsageError('Pagination sets the cursor itself; drop cursor= from the path and the query.', {
      input: 'paginate',
      reason: 'CURSOR_GIVEN',
    });
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const path = withCursor(opts.path, cursor);
    const res = await client.request<{ data?: unknown; hasMore?: unknown; nextCursor?: unknown }>({
      method: 'GET',
      path,
      headers: opts.headers,
      signal: opts.signal,
    });
    const body = res.body;
    if (body === null || typeof body !== 'object' || !Array.isArray(body.data)) {
      throw new ApiError({
        status: res.status,
        code: 'INVALID_RESPONSE',
        message: `GET ${path.split('?')[0]} is not a list: the answer has no "data" array, so it cannot be paginated`,
        method: 'GET',
        path: path.split('?')[0],
      });
    }
    opts.onItems(body.data);
    const next = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined;
    if (body.hasMore === false || next === undefined) return pages;
    if (seen.has(next)) {
      throw new ApiError({
        status: res.status,
        code: 'INVALID_RESPONSE',
        message: `The service returned the cursor "${next}" twice; stopped after ${pages} pages`,
        method: 'GET',
        path: path.split('?')[0],
      });
    }
    seen.add(next);
    cursor = next;
  }
}
