/** Flags several lists share, declared once. */
import type { OpFlag } from '../operation.js';

/** `-l, --limit` and `--cursor`: one page of a list (`--paginate` walks them all). */
export const LIST_FLAGS: OpFlag[] = [
  { syntax: '-l, --limit <number>', help: 'results per page, 1 to 100', type: 'int', min: 1, max: 100, query: 'limit' },
  { syntax: '--cursor <cursor>', help: 'the nextCursor of the previous page', query: 'cursor' },
];

export const SORT: OpFlag = { syntax: '--sort <order>', help: 'sort order', enum: ['asc', 'desc'], query: 'sortOrder' };

const time = (edge: 'created' | 'updated', side: 'after' | 'before'): OpFlag => ({
  syntax: `--${edge}-${side} <time>`,
  help: `only those ${edge} ${side} this time (RFC 3339)`,
  query: `${edge}${side === 'after' ? 'After' : 'Before'}`,
});
export const TIME_FILTERS: OpFlag[] = [
  time('created', 'after'),
  time('created', 'before'),
  time('updated', 'after'),
  time('updated', 'before'),
];

/** The smallest-currency-unit amount most writes take. */
export const amount = (help: string, body: string, required = false): OpFlag => ({
  syntax: '--amount <number>',
  help: `${help}, in the smallest currency unit (e.g. cents)`,
  type: 'int',
  min: 1,
  body,
  required,
});
