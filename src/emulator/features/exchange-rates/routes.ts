/** GET /exchange-rates: every pair of the rate table (or those asked for), priced for sendingAmount. */
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { CURRENCIES, CURRENCY_CODES } from '../accounts/currencies.js';
import { PAYMENT_RAIL, PLATFORM_FIXED_FEE, rates } from './rates.js';

export const exchangeRateRoutes: Route[] = [
  {
    method: 'GET',
    path: '/exchange-rates',
    handler(req, emu) {
      const f = new Fields({
        ...Object.fromEntries(req.query),
        destinationCurrency: req.query.getAll('destinationCurrency'),
      });
      const source = f.string('sourceCurrency', { enum: CURRENCY_CODES });
      const destinations = f.stringArray('destinationCurrency', {
        pattern: new RegExp(`^(${CURRENCY_CODES.join('|')})$`),
      });
      const amountText = f.string('sendingAmount', { pattern: /^\d{1,16}$/ });
      f.done();
      const sendingAmount = amountText === undefined ? 10_000 : Number(amountText);
      const snapshot = rates(emu);
      const data = (source ? [source] : CURRENCY_CODES).flatMap((from) =>
        (destinations?.length ? destinations : CURRENCY_CODES)
          .filter((to) => to !== from)
          .map((to) => {
            const fee = PLATFORM_FIXED_FEE[from]!;
            const exchangeRate = snapshot.rate(from, to);
            return {
              sourceCurrency: CURRENCIES[from],
              sendingAmount,
              minSendingAmount: fee + 1,
              maxSendingAmount: emu.opts.transactionLimits[from] ?? 0,
              destinationCurrency: CURRENCIES[to],
              destinationPaymentRail: PAYMENT_RAIL[to],
              receivingAmount: Math.max(0, Math.floor((sendingAmount - fee) * exchangeRate)),
              exchangeRate,
              fees: { fixed: fee, total: fee },
              updatedAt: emu.iso(snapshot.updatedAtMs),
            };
          }),
      );
      return { status: 200, body: { data } };
    },
  },
];
