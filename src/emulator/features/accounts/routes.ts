/** Internal accounts: list (by customer), get, and the sandbox's immediate funding. */
import { idPattern } from '../../../service/identifiers.js';
import { badRequest, notFound, type HttpError } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { ownedListRoute, type Route } from '../../kernel/router.js';
import { accounts, credit, renderAccount } from './accounts.js';
import { MAX_AMOUNT } from './currencies.js';

export function balanceOverflow(): HttpError {
  return badRequest('AMOUNT_OUT_OF_RANGE', `The balance would exceed ${Number.MAX_SAFE_INTEGER}`);
}

export const accountRoutes: Route[] = [
  ownedListRoute('/internal-accounts', 'customerId', idPattern('Customer'), (emu) => emu.table(accounts).values(), (a) => a.customerId, renderAccount),
  {
    method: 'GET',
    path: '/internal-accounts/:id',
    handler(req, emu) {
      const account = emu.table(accounts).get(req.params.id!);
      if (!account) throw notFound('InternalAccount', req.params.id!);
      return { status: 200, body: renderAccount(account) };
    },
  },
  {
    method: 'POST',
    path: '/sandbox/internal-accounts/:accountId/fund',
    handler(req, emu) {
      const f = new Fields(req.json());
      const amount = f.integer('amount', { required: true, min: 1, max: MAX_AMOUNT });
      f.done();
      const account = emu.table(accounts).get(req.params.accountId!);
      if (!account) throw notFound('InternalAccount', req.params.accountId!);
      if (!credit(account, amount!, emu.iso())) throw balanceOverflow();
      emu.changed();
      return { status: 200, body: renderAccount(account) };
    },
  },
];
