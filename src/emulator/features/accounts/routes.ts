/**
 * Internal accounts: the description's lists (customers', platform's), get by id (emulator
 * convenience, also used by the CLI), and the sandbox's immediate funding.
 */
import { idPattern } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest, notFound, type HttpError } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import { ownedListRoute, type Req, type Route } from '../../kernel/router.js';
import { callerMaySee } from './caller.js';
import { PLATFORM_OWNER, accounts, byCustomer, renderAccount, requireAccount, type AccountRec } from './accounts.js';
import { CURRENCY_CODES, MAX_AMOUNT } from './currencies.js';
import { LedgerBatch } from './ledger.js';
import { accountSignedRoutes } from './signed.js';

function balanceOverflow(): HttpError {
  return badRequest('AMOUNT_OUT_OF_RANGE', `The balance would exceed ${Number.MAX_SAFE_INTEGER}`);
}

/** The account, unless the caller is an agent and it is the platform's (the kernel hides other customers'). */
function visibleAccount(req: Req, emu: EmulatorContext, id: string): AccountRec {
  const account = requireAccount(emu, id);
  if (!callerMaySee(req, account.customerId)) throw notFound('InternalAccount', id);
  return account;
}

export const accountRoutes: Route[] = [
  ownedListRoute(
    '/internal-accounts',
    'customerId',
    idPattern('Customer'),
    (emu, customerId) =>
      customerId ? emu.table(accounts).where(byCustomer, customerId) : emu.table(accounts).values(),
    (a) => a.customerId,
    renderAccount,
  ),
  {
    method: 'GET',
    path: '/customers/internal-accounts',
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const customerId = f.string('customerId', { pattern: idPattern('Customer') });
      const currency = f.string('currency', { enum: CURRENCY_CODES });
      const type = f.string('type');
      const page = readPage(f);
      f.done();
      const candidates = customerId
        ? emu.table(accounts).where(byCustomer, customerId)
        : emu.table(accounts).filter((a) => a.customerId !== PLATFORM_OWNER);
      const rows = candidates.filter(
        (a) => a.customerId !== PLATFORM_OWNER && (!currency || a.currency === currency) && (!type || a.type === type),
      );
      return { status: 200, body: pageOf(rows.map(renderAccount), page) };
    },
  },
  {
    method: 'GET',
    path: '/platform/internal-accounts',
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      const currency = f.string('currency', { enum: CURRENCY_CODES });
      const type = f.string('type');
      f.done();
      const rows = emu
        .table(accounts)
        .where(byCustomer, PLATFORM_OWNER)
        .filter(
          (a) =>
            callerMaySee(req, a.customerId) && (!currency || a.currency === currency) && (!type || a.type === type),
        );
      return { status: 200, body: { data: rows.map(renderAccount) } };
    },
  },
  {
    method: 'GET',
    path: '/internal-accounts/:id',
    permission: 'VIEW',
    handler: (req, emu) => ({ status: 200, body: renderAccount(visibleAccount(req, emu, req.params.id!)) }),
  },
  {
    method: 'POST',
    path: '/sandbox/internal-accounts/:accountId/fund',
    permission: 'TRANSACT',
    permissionRefusal: 403,
    handler(req, emu) {
      const f = new Fields(req.json());
      // Required and its maximum are the description's, checked before this runs; above 0 is the emulator's.
      const amount = f.integer('amount', { min: 1, max: MAX_AMOUNT });
      f.done();
      const account = visibleAccount(req, emu, req.params.accountId!);
      if (!Number.isSafeInteger(account.balance + (account.held ?? 0) + amount!)) throw balanceOverflow();
      const batch = new LedgerBatch(emu);
      batch.credit(account.id, amount!);
      batch.commit();
      return { status: 200, body: renderAccount(account) };
    },
  },
  ...accountSignedRoutes,
];
