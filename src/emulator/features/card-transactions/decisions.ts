/**
 * The transaction operations that take any transaction id, answered for a card transaction (matched
 * here, before the transactions area, by the id's kind). None applies to a card spend, so each
 * answers the refusal the description declares for a transaction it does not apply to:
 * cancel (bank transfers only) and confirm (receipts of payments; a CardTransaction has no
 * receiptDeliveryConfirmedAt) are 400 naming transactionId; approve and reject (incoming payments
 * awaiting the platform) are 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL. Unknown ids are 404.
 */
import { HttpError, invalidInput } from '../../kernel/errors.js';
import type { Route } from '../../kernel/router.js';
import { requireCardTransaction } from './listing.js';

const refusals: Record<string, (id: string) => HttpError> = {
  cancel: (id) =>
    invalidInput([
      { field: 'transactionId', message: `${id} is a card transaction: only ACH and wire payments can be cancelled` },
    ]),
  confirm: (id) =>
    invalidInput([
      {
        field: 'transactionId',
        message: `${id} is a card transaction: receipt confirmation is for payments (the merchant gives card receipts)`,
      },
    ]),
  approve: (id) =>
    new HttpError(
      409,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      `${id} is a card transaction: only an incoming payment awaits the platform's approval`,
    ),
};
refusals.reject = refusals.approve!;

export const cardDecisionRoutes: Route[] = Object.entries(refusals).map(([verb, refusal]) => ({
  method: 'POST',
  path: `/transactions/:id(CardTransaction)/${verb}`,
  permission: 'TRANSACT',
  handler(req, emu) {
    requireCardTransaction(emu, req, req.params.id!); // 404 first
    throw refusal(req.params.id!);
  },
}));
