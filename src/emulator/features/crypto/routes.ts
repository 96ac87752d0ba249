/**
 * `POST /crypto/estimate-withdrawal-fee`: what withdrawing stablecoin dollars from a wallet to an
 * address on a network would cost. The emulator's wallets hold dollars (accounts/), so the source
 * must be a USD embedded wallet and the currency USDC or USDT. Each network has a fixed sandbox
 * network fee (in its own asset, and its cost in cents, below); there is no application fee. An
 * amount that does not cover the fee is 400 INVALID_AMOUNT. Nothing is withdrawn.
 */
import { idPattern } from '../../../service/index.js';
import { badRequest, invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { accounts } from '../accounts/accounts.js';
import { callerMaySee } from '../accounts/caller.js';
import { MAX_AMOUNT } from '../accounts/currencies.js';

/** The emulator's network fees: in the network's asset (smallest unit) and what that costs in cents. */
export const NETWORK_FEES: Readonly<Record<string, { asset: string; fee: number; cents: number }>> = {
  SOLANA: { asset: 'SOL', fee: 5_000, cents: 1 },
  ETHEREUM: { asset: 'ETH', fee: 420_000_000_000_000, cents: 150 },
  BASE: { asset: 'ETH', fee: 2_000_000_000_000, cents: 1 },
  POLYGON: { asset: 'POL', fee: 5_000_000_000_000_000, cents: 1 },
  TRON: { asset: 'TRX', fee: 1_000_000, cents: 30 },
  SPARK: { asset: 'BTC', fee: 0, cents: 0 },
};

export const cryptoRoutes: Route[] = [
  {
    method: 'POST',
    path: '/crypto/estimate-withdrawal-fee',
    permission: 'TRANSACT',
    handler(req, emu) {
      const f = new Fields(req.json());
      // Every field is required by the description, checked before this runs; read here are the
      // emulator's rules: the id's kind, the currencies and networks it prices, the address's shape.
      const accountId = f.string('internalAccountId', { pattern: idPattern('InternalAccount') });
      f.string('currency', { enum: ['USDC', 'USDT'] });
      const network = f.string('cryptoNetwork', { enum: Object.keys(NETWORK_FEES) });
      const amount = f.integer('amount', { min: 1, max: MAX_AMOUNT });
      f.string('destinationAddress', { minLength: 20, maxLength: 128, pattern: /^[A-Za-z0-9:]+$/ });
      f.done();
      const account = emu.table(accounts).get(accountId!);
      if (!account || !callerMaySee(req, account.customerId)) throw notFound('InternalAccount', accountId!);
      if (account.type !== 'EMBEDDED_WALLET' || account.currency !== 'USD')
        throw invalidInput([
          { field: 'internalAccountId', message: 'withdrawals of stablecoins are from a USD embedded wallet' },
        ]);
      const { asset, fee, cents } = NETWORK_FEES[network!]!;
      if (amount! <= cents)
        throw badRequest(
          'INVALID_AMOUNT',
          `amount ${amount} does not cover the ${network} network fee of ${cents} cents`,
        );
      return {
        status: 200,
        body: {
          networkFee: fee,
          networkFeeAsset: asset,
          applicationFee: 0,
          totalFee: cents,
          netAmount: amount! - cents,
        },
      };
    },
  },
];
