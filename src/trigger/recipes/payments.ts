/**
 * uma.* and quote.realtime-funding: a real-time-funding quote (to a UMA magic address, or to a
 * customer's own account) paid with POST /sandbox/send; observed are the transaction's status and
 * failureReason and the quote's status afterwards.
 */
import { ApiError } from '../../errors.js';
import { umaScenario } from '../../service/money-magic.js';
import type { Scenario } from '../catalog.js';
import { CREATED_BY, call, field, pick, type Body, type TriggerContext } from '../context.js';
import { withSet } from '../inputs.js';
import { createIndividual, usdAccount } from './customers.js';

const AMOUNT = 1000; // 10.00 in the smallest unit

async function payQuote(ctx: TriggerContext, destination: Body, currency: string): Promise<Body> {
  ctx.progress('Creating a real-time-funding quote');
  const quote = await call(
    ctx,
    'POST',
    '/quotes',
    withSet(ctx.inputs, 'quote', {
      source: { sourceType: 'REALTIME_FUNDING', currency },
      destination,
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: AMOUNT,
      description: CREATED_BY,
    }),
  );
  const quoteId = field(quote, 'id', 'POST /quotes');
  ctx.resources.quoteId = quoteId;
  ctx.progress('Paying it with POST /sandbox/send');
  const tx = await call(ctx, 'POST', '/sandbox/send', { quoteId, currencyCode: currency });
  ctx.resources.transactionId = field(tx, 'id', 'POST /sandbox/send');
  const after = await call(ctx, 'GET', `/quotes/${quoteId}`);
  return {
    ...pick(tx, ['status', 'failureReason']),
    ...(after.status !== undefined ? { quoteStatus: after.status } : {}),
  };
}

export async function umaDestination(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const address = scenario.magic.value;
  const currency = umaScenario(address)?.currency;
  if (!currency)
    throw new ApiError({ status: 0, code: 'INVALID_SCENARIO', message: `${address} is not a UMA magic address` });
  return payQuote(ctx, { destinationType: 'UMA_ADDRESS', umaAddress: address, currency }, currency);
}

export async function realtimeFunding(ctx: TriggerContext): Promise<Body> {
  await createIndividual(ctx, 'Rory Realtime');
  await usdAccount(ctx);
  return payQuote(ctx, { destinationType: 'ACCOUNT', accountId: ctx.resources.accountId, currency: 'USD' }, 'USD');
}
