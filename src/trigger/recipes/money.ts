/**
 * beneficiary.* and transfer.*: a customer's external USD bank account whose account number ends
 * in the magic digits. Beneficiary scenarios observe the name check its creation answers; transfer
 * scenarios pay out to it from the customer's funded internal account and follow the transaction.
 */
import { ApiError } from '../../errors.js';
import type { Scenario } from '../catalog.js';
import { call, field, pick, poll, type Body, type TriggerContext } from '../context.js';
import { accountIn, createIndividual, customerAccounts, individualBody } from './customers.js';

const HOLDER = 'Bea Beneficiary';
const ROUTING_NUMBER = '021000021';
const FUNDING = 100_000;
const AMOUNT = 1_000;
/** Polls a delayed transfer every 5 s, for its delay plus a minute. */
const POLL_EVERY_MS = 5_000;
const FINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED']);

/** POST /customers/external-accounts for a USD bank account with this number, in the customer's own name. */
async function externalAccount(ctx: TriggerContext, customerId: string, accountNumber: string): Promise<Body> {
  ctx.progress(`Adding external account …${accountNumber.slice(-3)}`);
  const account = await call(ctx, 'POST', '/customers/external-accounts', {
    customerId,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber,
      routingNumber: ROUTING_NUMBER,
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: HOLDER, address: (individualBody(HOLDER).address as object) },
    },
  });
  ctx.resources.externalAccountId = field(account, 'id', 'POST /customers/external-accounts');
  return account;
}

export async function beneficiaryVerification(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const customer = await createIndividual(ctx, HOLDER);
  try {
    const account = await externalAccount(ctx, field(customer, 'id', 'POST /customers'), scenario.magic.value);
    return { status: account.beneficiaryVerificationStatus, ...pick(account, ['beneficiaryVerificationStatus', 'beneficiaryVerifiedData']) };
  } catch (error) {
    // The invalid-account row is a refusal: the 400 is the outcome, reported as observed.
    if (scenario.expect.httpStatus && error instanceof ApiError && error.status === 400) return { status: error.code, httpStatus: error.status, code: error.code };
    throw error;
  }
}

export async function externalTransfer(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const customer = await createIndividual(ctx, HOLDER);
  const customerId = field(customer, 'id', 'POST /customers');
  const usd = accountIn(await customerAccounts(ctx, customerId), 'USD');
  if (!usd) throw new ApiError({ status: 200, code: 'INVALID_RESPONSE', message: `${customerId} has no USD internal account` });
  const accountId = (ctx.resources.accountId = field(usd, 'id', 'the internal account list'));
  ctx.progress('Funding the internal account');
  await call(ctx, 'POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: FUNDING });
  await externalAccount(ctx, customerId, scenario.magic.value);

  ctx.progress('Paying out with POST /transfer-out');
  let tx = await call(ctx, 'POST', '/transfer-out', { source: { accountId }, destination: { accountId: ctx.resources.externalAccountId }, amount: AMOUNT });
  const txPath = `/transactions/${(ctx.resources.transactionId = field(tx, 'id', 'POST /transfer-out'))}`;
  if (ctx.wait && !FINAL.has(String(tx.status))) {
    ctx.progress(`Waiting for the transfer to settle (about ${Math.round(scenario.delayMs / 1000)} s)`);
    tx = await poll(ctx, () => call(ctx, 'GET', txPath), (t) => FINAL.has(String(t.status)), scenario.delayMs + 60_000, POLL_EVERY_MS);
  }
  return pick(tx, ['status', 'failureReason']);
}
