/**
 * GET /exchange-rates: every corridor of the rate table (or those asked for), priced for
 * sendingAmount as a quote would be. Sources are every currency the description names; destinations
 * every currency a payout can be made in. A currency the description does not name is 400 naming
 * the parameter.
 */
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { CURRENCIES, CURRENCY_CODES } from '../accounts/currencies.js';
import { maxAmount } from '../transactions/limits.js';
import { PAYOUT_CURRENCIES, convert, costOf, payoutRail, platformFee, rates } from './rates.js';

const NAMED = new RegExp(`^(${CURRENCY_CODES.join('|')})$`);

export const exchangeRateRoutes: Route[] = [
  {
    method: 'GET',
    path: '/exchange-rates',
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields({
        ...Object.fromEntries(req.query),
        destinationCurrency: req.query.getAll('destinationCurrency'),
      });
      const source = f.string('sourceCurrency', { enum: CURRENCY_CODES });
      // The description repeats the parameter (style form, explode); a client that joins the values
      // with commas (the official TypeScript SDK does) is told the form it takes.
      const joined = req.query.getAll('destinationCurrency').find((v) => v.includes(','));
      if (joined) {
        const repeated = joined
          .split(',')
          .map((code) => `destinationCurrency=${code}`)
          .join('&');
        f.add('destinationCurrency', `destinationCurrency takes one currency each time: ${repeated}, not ${joined}`);
      }
      const destinations = joined ? undefined : f.stringArray('destinationCurrency', { pattern: NAMED });
      const amountText = f.string('sendingAmount', { pattern: /^\d{1,16}$/ });
      f.done();
      const sendingAmount = amountText === undefined ? 10_000 : Number(amountText);
      const snapshot = rates(emu);
      const wanted = destinations?.length ? destinations : PAYOUT_CURRENCIES;
      const data = (source ? [source] : CURRENCY_CODES).flatMap((from) =>
        wanted
          .filter((to) => to !== from && PAYOUT_CURRENCIES.includes(to))
          .map((to) => {
            const fee = platformFee(from);
            const rail = payoutRail(to);
            return {
              sourceCurrency: CURRENCIES[from],
              sendingAmount,
              // The least that delivers one smallest unit of the destination currency.
              minSendingAmount: fee + Math.max(1, costOf(snapshot, 1, from, to)),
              maxSendingAmount: maxAmount(emu, from),
              destinationCurrency: CURRENCIES[to],
              ...(rail ? { destinationPaymentRail: rail } : {}),
              receivingAmount: Math.max(0, convert(snapshot, sendingAmount - fee, from, to)),
              exchangeRate: snapshot.rate(from, to),
              fees: { fixed: fee, total: fee },
              updatedAt: emu.iso(snapshot.updatedAtMs),
            };
          }),
      );
      return { status: 200, body: { data } };
    },
  },
];
