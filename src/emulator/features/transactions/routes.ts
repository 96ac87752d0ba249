/** GET /transactions (the description's filters, newest first unless sortOrder=asc, paged), GET /transactions/{id}, POST …/confirm; cancel, approve and reject in decisions.ts. */
import { parseDateTime } from '../../../date-time.js';
import { idPattern } from '../../../service/identifiers.js';
import { notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import { callerMaySee } from '../accounts/caller.js';
import { cardTransactionsMatching, requireCardTransaction } from '../card-transactions/listing.js';
import { decisionRoutes } from './decisions.js';
import { renderTransaction, requireTransaction, transactions, type TxRec } from './transactions.js';

function end(tx: TxRec, side: 'source' | 'destination'): string | undefined {
  const value = tx.fields[side] as Record<string, unknown> | undefined;
  return (value?.accountId ?? value?.umaAddress) as string | undefined;
}

/** A date-time filter: its format is the description's, checked before the handler runs. */
function when(f: Fields, name: string): number | undefined {
  const text = f.string(name);
  return text === undefined ? undefined : parseDateTime(text);
}

/**
 * Both tables keep insertion order, which is creation order: one linear merge (payments first at
 * the same instant) keeps a list without card transactions exactly as cheap as before.
 */
function mergeByCreation(
  payments: Record<string, unknown>[],
  cards: { at: string; body: Record<string, unknown> }[],
): Record<string, unknown>[] {
  if (cards.length === 0) return payments;
  const out: Record<string, unknown>[] = [];
  let c = 0;
  for (const p of payments) {
    while (c < cards.length && cards[c]!.at < (p.createdAt as string)) out.push(cards[c++]!.body);
    out.push(p);
  }
  while (c < cards.length) out.push(cards[c++]!.body);
  return out;
}

const CUSTOMER_OR_PLATFORM = new RegExp(`${idPattern('Customer').source}|${idPattern('PlatformConfig').source}`);

export const transactionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/transactions',
    permission: 'VIEW',
    handler(req, emu) {
      const f = new Fields(Object.fromEntries(req.query));
      // The platform's own payments name the platform's id as their customer (platform-id.ts).
      const customerId = f.string('customerId', { pattern: CUSTOMER_OR_PLATFORM });
      const platformCustomerId = f.string('platformCustomerId', { minLength: 1 });
      const accountIdentifier = f.string('accountIdentifier', { minLength: 1 });
      const sender = f.string('senderAccountIdentifier', { minLength: 1 });
      const receiver = f.string('receiverAccountIdentifier', { minLength: 1 });
      // The filters' enums and date-times are the description's, checked before this runs.
      const status = f.string('status');
      const type = f.string('type');
      const reference = f.string('reference', { minLength: 1 });
      const start = when(f, 'startDate');
      const finish = when(f, 'endDate');
      const sortOrder = f.string('sortOrder') ?? 'desc';
      const page = readPage(f);
      f.done();
      const rows = emu.table(transactions).filter((tx) => {
        const created = Date.parse(tx.createdAt);
        const ref = (tx.fields.reconciliationInstructions as { reference?: string } | undefined)?.reference;
        return (
          callerMaySee(req, tx.customerId) &&
          (!customerId || tx.fields.customerId === customerId) &&
          (!platformCustomerId || tx.fields.platformCustomerId === platformCustomerId) &&
          (!accountIdentifier ||
            end(tx, 'source') === accountIdentifier ||
            end(tx, 'destination') === accountIdentifier) &&
          (!sender || end(tx, 'source') === sender) &&
          (!receiver || end(tx, 'destination') === receiver) &&
          (!status || tx.status === status) &&
          (!type || tx.type === type) &&
          (!reference || ref === reference) &&
          (start === undefined || created >= start) &&
          (finish === undefined || created <= finish)
        );
      });
      // Card transactions (type CARD) are listed too; the type filter's enum has no CARD, so it leaves them out.
      const cards = type
        ? []
        : cardTransactionsMatching(emu, req, {
            customerId,
            platformCustomerId,
            accountIdentifier,
            sender,
            receiver,
            status,
            reference,
            start,
            finish,
          });
      const all = mergeByCreation(rows.map(renderTransaction), cards);
      if (sortOrder === 'desc') all.reverse();
      return { status: 200, body: pageOf(all, page) };
    },
  },
  {
    // The description's receipt confirmation: records when the platform delivered the receipt (now if omitted); a repeat updates it.
    method: 'POST',
    path: '/transactions/:id/confirm',
    permission: 'TRANSACT',
    handler(req, emu) {
      const f = new Fields(req.raw.length > 0 ? req.json() : {});
      const at = when(f, 'receiptDeliveryConfirmedAt');
      f.done();
      const tx = requireTransaction(emu, req.params.id!);
      if (!callerMaySee(req, tx.customerId)) throw notFound('Transaction', tx.id, 'TRANSACTION_NOT_FOUND');
      tx.fields.receiptDeliveryConfirmedAt = emu.iso(at ?? emu.now());
      tx.updatedAt = emu.iso();
      emu.changed();
      return { status: 200, body: renderTransaction(tx) };
    },
  },
  {
    method: 'GET',
    path: '/transactions/:id',
    permission: 'VIEW',
    handler(req, emu) {
      if (req.params.id!.startsWith('CardTransaction:'))
        return { status: 200, body: requireCardTransaction(emu, req, req.params.id!) };
      const tx = requireTransaction(emu, req.params.id!);
      if (!callerMaySee(req, tx.customerId)) throw notFound('Transaction', tx.id, 'TRANSACTION_NOT_FOUND');
      return { status: 200, body: renderTransaction(tx) };
    },
  },
  ...decisionRoutes,
];
