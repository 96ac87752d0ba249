/** Customers for the scenarios: an individual whose fullName carries the magic, and its internal accounts. */
import { ApiError } from '../../errors.js';
import { call, field, type Body, type TriggerContext } from '../context.js';

/** A complete individual (spec "Required for submission"), apart from the identity document. */
export function individualBody(fullName: string, complete = true): Body {
  const base = { customerType: 'INDIVIDUAL', fullName, birthDate: '1990-04-12', nationality: 'US' };
  if (!complete) return base;
  return { ...base, idType: 'SSN', identifier: '123-45-6789', address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' } };
}

export async function createIndividual(ctx: TriggerContext, fullName: string, complete = true): Promise<Body> {
  ctx.progress(`Creating customer "${fullName}"`);
  const customer = await call(ctx, 'POST', '/customers', individualBody(fullName, complete));
  ctx.resources.customerId = field(customer, 'id', 'POST /customers');
  return customer;
}

/**
 * The customer's internal accounts. The public API lists them at /customers/internal-accounts; an
 * older emulator only at /internal-accounts, which is tried when the first is not a route there.
 */
export async function customerAccounts(ctx: TriggerContext, customerId: string): Promise<Body[]> {
  const query = `customerId=${encodeURIComponent(customerId)}`;
  let list: Body;
  try {
    list = await call(ctx, 'GET', `/customers/internal-accounts?${query}`);
  } catch (error) {
    // The emulator reads /customers/internal-accounts as a customer id: any 404 means "not here".
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    list = await call(ctx, 'GET', `/internal-accounts?${query}`);
  }
  return Array.isArray(list.data) ? (list.data as Body[]) : [];
}

/** The account in `currency` (InternalAccount.balance.currency.code, or `currency`). */
export function accountIn(accounts: Body[], currency: string): Body | undefined {
  return accounts.find((a) => {
    const balance = a.balance as { currency?: { code?: string } } | undefined;
    return (balance?.currency?.code ?? a.currency) === currency;
  });
}
