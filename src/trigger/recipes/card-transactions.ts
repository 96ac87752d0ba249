/**
 * card-transaction.*: an approved cardholder whose USD account is funded, an ACTIVE card on it, then
 * the card simulators (POST /sandbox/cards/{id}/simulate/…): an authorization at a merchant whose
 * descriptor carries the magic, and for the lifecycle scenarios a clearing and a return. Each
 * simulator answers at once and works asynchronously, so every step is followed by reading the
 * CardTransaction back (GET /transactions lists it; its issuerTransactionToken matches the answer).
 * A declined authorization makes no CardTransaction at all: observed as `cardTransaction none`,
 * with the account's balance unmoved.
 */
import type { Scenario } from '../catalog.js';
import { call, field, pick, poll, type Body, type TriggerContext } from '../context.js';
import { withSet } from '../inputs.js';
import { APPROVED_HOLDER, issueCard, requireActive, waitForIssuer } from './cards.js';
import { createIndividual, findAccount, usdAccount } from './customers.js';

const FUNDING = 100_000;
const CARD_AUTHORIZATION_AMOUNT = 1_000;
/** The emulator answers a card event after a second; a decline shows as nothing having appeared by then. */
const EVENT_BUDGET_MS = 5_000;
const POLL_EVERY_MS = 1_000;

const amountOf = (money: unknown): number | undefined => (money as { amount?: number } | undefined)?.amount;

/** What a CardTransaction says: its status, the amounts, and how many pulls are still pending. */
function outcome(tx: Body): Body {
  const pulls = tx.pullSummary as { totalAmount?: number; pendingCount?: number } | undefined;
  return {
    cardTransaction: tx.id,
    ...pick(tx, ['status']),
    ...(amountOf(tx.settledAmount) !== undefined ? { settledAmount: amountOf(tx.settledAmount) } : {}),
    ...(amountOf(tx.refundedAmount) !== undefined ? { refundedAmount: amountOf(tx.refundedAmount) } : {}),
    ...(pulls ? { pulled: pulls.totalAmount, pendingPulls: pulls.pendingCount ?? 0 } : {}),
  };
}

async function available(ctx: TriggerContext): Promise<number | undefined> {
  const account = await findAccount(ctx, ctx.resources.accountId!, ctx.resources.customerId);
  return account === undefined ? undefined : amountOf(account.balance);
}

/** The card transaction an authorization made, once it appears (undefined: none appeared, a decline). */
async function made(ctx: TriggerContext, token: string): Promise<Body | undefined> {
  const find = async (): Promise<Body> => {
    const list = await call(ctx, 'GET', `/transactions?customerId=${encodeURIComponent(ctx.resources.customerId!)}`);
    const rows = Array.isArray(list.data) ? (list.data as Body[]) : [];
    return rows.find((tx) => tx.type === 'CARD' && tx.issuerTransactionToken === token) ?? {};
  };
  const found = await poll(ctx, find, (tx) => tx.id !== undefined, EVENT_BUDGET_MS, POLL_EVERY_MS);
  return found.id === undefined ? undefined : found;
}

/** A simulator call on the transaction, then its result read back once its status moved off `from`. */
async function step(ctx: TriggerContext, kind: string, body: Body, from: string): Promise<Body> {
  ctx.progress(`Simulating ${kind}`);
  await call(ctx, 'POST', `/sandbox/cards/${ctx.resources.cardId}/simulate/${kind}`, body);
  const path = `/transactions/${ctx.resources.cardTransactionId}`;
  return poll(
    ctx,
    () => call(ctx, 'GET', path),
    (tx) => tx.status !== from,
    EVENT_BUDGET_MS,
    POLL_EVERY_MS,
  );
}

export async function cardTransaction(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  await createIndividual(ctx, APPROVED_HOLDER);
  const accountId = field(await usdAccount(ctx), 'id', 'the internal account');
  ctx.progress('Funding the card account');
  await call(ctx, 'POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: FUNDING });
  const { cardPath } = await issueCard(ctx);
  requireActive(await waitForIssuer(ctx, cardPath), cardPath, scenario);

  const descriptor = scenario.magic.field === 'merchant.descriptor' ? scenario.magic.value : 'BLUE BOTTLE COFFEE SF';
  const before = await available(ctx);
  ctx.progress(`Simulating an authorization at ${descriptor}`);
  const body = withSet(ctx.inputs, 'authorization', {
    amount: CARD_AUTHORIZATION_AMOUNT,
    currency: { code: 'USD' },
    merchant: { descriptor, mcc: '5814', country: 'US' },
  });
  const answer = await call(ctx, 'POST', `/sandbox/cards/${ctx.resources.cardId}/simulate/authorization`, body);
  const token = field(answer, 'issuerTransactionToken', 'POST …/simulate/authorization');
  let tx = await made(ctx, token);
  if (!tx) return { status: 'none', cardTransaction: 'none', pulled: (before ?? 0) - ((await available(ctx)) ?? 0) };
  const id = (ctx.resources.cardTransactionId = field(tx, 'id', 'the card transaction'));
  const amount = body.amount;

  switch (scenario.name) {
    case 'card-transaction.exception':
      // AUTHORIZED first; the failed confirmation follows.
      if (tx.status === 'AUTHORIZED')
        tx = await poll(
          ctx,
          () => call(ctx, 'GET', `/transactions/${id}`),
          (t) => t.status !== 'AUTHORIZED',
          EVENT_BUDGET_MS,
        );
      break;
    case 'card-transaction.delayed-pull':
      if (ctx.wait) {
        ctx.progress(`Following the pending pull (about ${Math.round(scenario.delayMs / 1000)} s)`);
        tx = await poll(
          ctx,
          () => call(ctx, 'GET', `/transactions/${id}`),
          (t) => (t.pullSummary as { pendingCount?: number } | undefined)?.pendingCount === 0,
          scenario.delayMs + 60_000,
          5_000,
        );
      }
      break;
    case 'card-transaction.partially-settled':
      tx = await step(ctx, 'clearing', { cardTransactionId: id, amount: Number(scenario.magic.value) }, 'AUTHORIZED');
      break;
    case 'card-transaction.refunded':
      await step(ctx, 'clearing', { cardTransactionId: id, amount }, 'AUTHORIZED');
      tx = await step(ctx, 'return', { cardTransactionId: id, amount }, 'SETTLED');
      break;
  }
  return outcome(tx);
}
