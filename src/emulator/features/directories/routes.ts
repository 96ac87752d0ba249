import { CURRENCIES } from '../accounts/currencies.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { INSTITUTIONS, UMA_PROVIDERS, VASPS } from './catalog.js';

const CURRENCY = /^[A-Z]{3,5}$/;

export const directoryRoutes: Route[] = [
  {
    method: 'GET',
    path: '/discoveries',
    permission: 'VIEW',
    handler(req) {
      // The country's ISO code is checked before this runs (the description's prose, request-check).
      const f = new Fields(Object.fromEntries(req.query));
      const country = f.string('country');
      const currency = f.string('currency', { pattern: CURRENCY });
      f.done();
      const data = INSTITUTIONS.filter(
        (i) => (!country || i.country === country) && (!currency || i.currency === currency),
      );
      return { status: 200, body: { data } };
    },
  },
  {
    method: 'GET',
    path: '/uma-providers',
    permission: 'VIEW',
    handler(req) {
      // The country's ISO code, the boolean and sortOrder's enum are checked before this runs.
      const f = new Fields(Object.fromEntries(req.query));
      const country = f.string('countryCode');
      const currency = f.string('currencyCode', { pattern: CURRENCY });
      const order = f.string('sortOrder');
      const paging = readPage(f);
      f.done();
      const picked = UMA_PROVIDERS.filter(
        (p) =>
          (!country || (p.regions as readonly string[]).includes(country)) &&
          (!currency || (p.currencies as readonly string[]).includes(currency)),
      )
        .map((p) => ({
          name: p.name,
          supportedRegions: p.regions,
          domain: p.domain,
          logoUrl: `https://${p.domain}/logo.png`,
          supportedCurrencies: p.currencies.map((c) => CURRENCIES[c]),
          lei: p.lei,
          allowListStatus: true,
        }))
        .sort((a, b) => (order === 'desc' ? -1 : 1) * a.name.localeCompare(b.name));
      return { status: 200, body: pageOf(picked, paging) };
    },
  },
  {
    method: 'GET',
    path: '/vasps',
    permission: 'VIEW',
    handler(req) {
      const f = new Fields(Object.fromEntries(req.query));
      const paging = readPage(f);
      f.done();
      const { data, hasMore, nextCursor } = pageOf([...VASPS], paging);
      return { status: 200, body: { data, hasMore, ...(nextCursor ? { nextCursor } : {}) } };
    },
  },
];
