/**
 * beneficiary.* and transfer.*: a customer's external USD bank account whose account number ends
 * in the magic digits. Beneficiary scenarios observe the name check its creation answers; transfer
 * scenarios pay out to it from the customer's funded internal account and follow the transaction.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, RejectedInputError } from '../../errors.js';
import type { Scenario } from '../catalog.js';
import { CREATED_BY, call, field, pick, poll, type Body, type TriggerContext } from '../context.js';
import { externalAccountMismatch, withSet } from '../inputs.js';
import { accountIn, createIndividual, individualBody, own, usdAccount } from './customers.js';

const HOLDER = 'Bea Beneficiary';
const ROUTING_NUMBER = '021000021';
const FUNDING = 100_000;
const AMOUNT = 1_000;
/** Polls a delayed transfer every 5 s, for its delay plus a minute. */
const POLL_EVERY_MS = 5_000;
const FINAL = new Set(['COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED']);

/**
 * Follows a transaction (when the run waits) for the row's delay and until it is final: a returned payment
 * completes first and fails 30 s later, so "final" alone would stop too early.
 */
async function follow(ctx: TriggerContext, scenario: Scenario, tx: Body, txPath: string): Promise<Body> {
  if (!ctx.wait || (scenario.delayMs === 0 && FINAL.has(String(tx.status)))) return tx;
  ctx.progress(
    `Following ${txPath.slice(14)} (about ${Math.round(scenario.delayMs / 1000)} s on the service's clock${ctx.waitNote ? `; ${ctx.waitNote}` : ''})`,
  );
  return poll(
    ctx,
    () => call(ctx, 'GET', txPath),
    (t, waited) => waited >= scenario.delayMs && FINAL.has(String(t.status)),
    scenario.delayMs + 60_000,
    POLL_EVERY_MS,
  );
}

/** What a payment's transaction says: status, failureReason and the refund's status. */
function paymentOutcome(tx: Body): Body {
  const refund = tx.refund as Body | undefined;
  return { ...pick(tx, ['status', 'failureReason']), ...(refund?.status ? { refundStatus: refund.status } : {}) };
}

/** POST /customers/external-accounts for a USD bank account with this number, in the customer's own name. */
async function externalAccount(ctx: TriggerContext, customerId: string, accountNumber: string): Promise<Body> {
  const body = withSet(ctx.inputs, 'externalAccount', {
    customerId,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber,
      routingNumber: ROUTING_NUMBER,
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: HOLDER,
        address: individualBody(HOLDER).address as object,
      },
    },
  });
  ctx.progress(`Adding external account …${body.accountInfo.accountNumber.slice(-3)}`);
  const account = await call(ctx, 'POST', '/customers/external-accounts', body);
  ctx.resources.externalAccountId = field(account, 'id', 'POST /customers/external-accounts');
  return account;
}

/** The given external account, read back: it must be the customer's and its number must select the scenario's row. */
async function ownExternalAccount(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const id = ctx.inputs.externalAccountId!;
  const account = await own(ctx, `/customers/external-accounts/${id}`, 'externalAccount');
  const why = externalAccountMismatch(scenario, account);
  if (why)
    throw new RejectedInputError(`${id} cannot run ${scenario.name}: ${why}.`, {
      input: 'externalAccount',
      reason: 'WRONG_MAGIC',
    });
  const customerId = ctx.inputs.customerId;
  if (typeof account.customerId !== 'string')
    throw new RejectedInputError(`${id} is a platform account; this scenario pays out to a customer's account.`, {
      input: 'externalAccount',
      reason: 'PLATFORM_ACCOUNT',
    });
  if (customerId && account.customerId !== customerId) {
    throw new RejectedInputError(`${id} belongs to ${account.customerId}, not to the customer given, ${customerId}.`, {
      input: 'externalAccount',
      reason: 'NOT_THE_CUSTOMERS',
    });
  }
  // Its owner is the customer the scenario acts for (checked to be APPROVED next).
  ctx.inputs = { ...ctx.inputs, customerId: account.customerId };
  ctx.resources.externalAccountId = id;
  ctx.reused.push('externalAccountId');
  return account;
}

export async function beneficiaryVerification(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  await createIndividual(ctx, HOLDER);
  try {
    const account = await externalAccount(ctx, ctx.resources.customerId!, scenario.magic.value);
    return {
      status: account.beneficiaryVerificationStatus,
      ...pick(account, ['beneficiaryVerificationStatus', 'beneficiaryVerifiedData']),
    };
  } catch (error) {
    // The invalid-account row is a refusal: the 400 is the outcome, reported as observed.
    if (scenario.expect.httpStatus && error instanceof ApiError && error.status === 400)
      return { status: error.code, httpStatus: error.status, code: error.code };
    throw error;
  }
}

export async function externalTransfer(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const own = ctx.inputs.externalAccountId ? await ownExternalAccount(ctx, scenario) : undefined;
  await createIndividual(ctx, HOLDER);
  const customerId = ctx.resources.customerId!;
  const accountId = field(await usdAccount(ctx), 'id', 'the internal account');
  ctx.progress('Funding the internal account');
  await call(ctx, 'POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: FUNDING });
  if (!own) await externalAccount(ctx, customerId, scenario.magic.value);

  ctx.progress('Paying out with POST /transfer-out');
  const tx = await call(
    ctx,
    'POST',
    '/transfer-out',
    withSet(ctx.inputs, 'transfer', {
      source: { accountId },
      destination: { accountId: ctx.resources.externalAccountId },
      amount: AMOUNT,
    }),
  );
  const txPath = `/transactions/${(ctx.resources.transactionId = field(tx, 'id', 'POST /transfer-out'))}`;
  return paymentOutcome(await follow(ctx, scenario, tx, txPath));
}

/** The platform's funded USD account: a quote source that needs no wallet signature. */
async function platformSource(ctx: TriggerContext): Promise<string> {
  const list = await call(ctx, 'GET', '/platform/internal-accounts?currency=USD');
  const usd = accountIn(Array.isArray(list.data) ? (list.data as Body[]) : [], 'USD');
  if (!usd)
    throw new ApiError({
      status: 200,
      code: 'INVALID_RESPONSE',
      message: 'The platform has no USD internal account to fund the quote from',
    });
  const id = (ctx.resources.sourceAccountId = field(usd, 'id', 'GET /platform/internal-accounts'));
  ctx.progress('Funding the platform account');
  await call(ctx, 'POST', `/sandbox/internal-accounts/${id}/fund`, { amount: FUNDING });
  return id;
}

export async function quoteExecution(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const own = ctx.inputs.externalAccountId ? await ownExternalAccount(ctx, scenario) : undefined;
  await createIndividual(ctx, HOLDER);
  if (!own) await externalAccount(ctx, ctx.resources.customerId!, scenario.magic.value);
  const source = await platformSource(ctx);
  ctx.progress('Creating a quote to the external account');
  const quote = await call(
    ctx,
    'POST',
    '/quotes',
    withSet(ctx.inputs, 'quote', {
      source: { sourceType: 'ACCOUNT', accountId: source },
      destination: { destinationType: 'ACCOUNT', accountId: ctx.resources.externalAccountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: AMOUNT,
      description: CREATED_BY,
    }),
  );
  const quoteId = (ctx.resources.quoteId = field(quote, 'id', 'POST /quotes'));
  ctx.progress('Executing it');
  const executed = await ctx.client.request<Body>({
    method: 'POST',
    path: `/quotes/${quoteId}/execute`,
    headers: { 'Idempotency-Key': randomUUID() },
    signal: ctx.signal,
  });
  if (executed.status === 202) {
    // The request is named, so the CLI can say how to sign it (commands/error-hints.ts).
    throw new ApiError({
      status: 202,
      code: 'SIGNATURE_REQUIRED',
      message: `Executing ${quoteId} asks for a wallet signature`,
      method: 'POST',
      path: `/quotes/${quoteId}/execute`,
    });
  }
  const after = await call(ctx, 'GET', `/quotes/${quoteId}`);
  const transactionId = field(after, 'transactionId', `GET /quotes/${quoteId}`);
  const txPath = `/transactions/${(ctx.resources.transactionId = transactionId)}`;
  const tx = await follow(ctx, scenario, await call(ctx, 'GET', txPath), txPath);
  const settled = await call(ctx, 'GET', `/quotes/${quoteId}`);
  return { ...paymentOutcome(tx), ...(settled.status !== undefined ? { quoteStatus: settled.status } : {}) };
}
