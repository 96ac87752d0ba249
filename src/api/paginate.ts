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

/** Each page's items of the list `opts` asks for, in order, as they arrive. */
async function* listPages(client: ApiClient, opts: Omit<PageOptions, 'onItems'>): AsyncGenerator<unknown[]> {
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
    yield body.data;
    const next = typeof body.nextCursor === 'string' && body.nextCursor !== '' ? body.nextCursor : undefined;
    if (body.hasMore === false || next === undefined) return;
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

/** Walks every page; resolves to the number of pages read. */
export async function paginate(client: ApiClient, opts: PageOptions): Promise<number> {
  let pages = 0;
  for await (const items of listPages(client, opts)) {
    pages++;
    opts.onItems(items);
  }
  return pages;
}

/**
 * The first item of the GET list at `path` (its query without a cursor) that `match` accepts,
 * looked for in its first `maxPages` pages; undefined when none has it. `T` is what the list holds.
 */
export async function findInList<T>(
  client: ApiClient,
  path: string,
  match: (item: T) => boolean,
  { maxPages, signal }: { maxPages: number; signal?: AbortSignal },
): Promise<T | undefined> {
  let pages = 0;
  for await (const items of listPages(client, { method: 'GET', path, signal })) {
    const found = (items as T[]).find(match);
    if (found !== undefined || ++pages >= maxPages) return found;
  }
  return undefined;
}
