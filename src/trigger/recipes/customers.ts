/**
 * Customers for the scenarios: an individual whose fullName carries the magic (with the
 * customer.… values to set), or the caller's own (the given customer, or the owner of the given account), checked before
 * anything is created; and its internal accounts.
 */
import { ApiError, RejectedInputError } from '../../errors.js';
import { withSet, type ResourceOption } from '../inputs.js';
import { call, field, type Body, type TriggerContext } from '../context.js';
import { withArticle } from '../../words.js';
import { findInList } from '../../api/paginate.js';

/** A complete individual (spec "Required for submission"), apart from the identity document. */
export function individualBody(fullName: string, complete = true): Body {
  const base = { customerType: 'INDIVIDUAL', fullName, birthDate: '1990-04-12', nationality: 'US' };
  if (!complete) return base;
  return {
    ...base,
    idType: 'SSN',
    identifier: '123-45-6789',
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  };
}

/** A GET of the caller's resource; a 404 is an error naming the input that gave the id. */
export async function own(ctx: TriggerContext, path: string, input: ResourceOption): Promise<Body> {
  try {
    return await call(ctx, 'GET', path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw new RejectedInputError(`${path.split('/').pop()} does not exist at this service.`, {
        input,
        reason: 'NOT_FOUND',
      });
    throw error;
  }
}

/** The given account, read back and checked to be in `currency` (and the given customer's, when both are). */
async function ownAccount(ctx: TriggerContext, currency: string): Promise<Body | undefined> {
  const id = ctx.inputs.accountId;
  if (!id) return undefined;
  // The given customer's list first; every customer's then, to say whose it is.
  const given = ctx.inputs.customerId;
  const account = (given ? await findAccount(ctx, id, given) : undefined) ?? (await findAccount(ctx, id));
  if (!account)
    throw new RejectedInputError(`${id} is not an internal account of any customer at this service.`, {
      input: 'account',
      reason: 'NOT_FOUND',
    });
  const code = (account.balance as { currency?: { code?: string } } | undefined)?.currency?.code;
  if (code !== currency)
    throw new RejectedInputError(
      `${id} holds ${code ?? 'an unknown currency'}; this scenario needs ${withArticle(currency)} account.`,
      { input: 'account', reason: 'WRONG_CURRENCY' },
    );
  if (ctx.inputs.customerId && account.customerId !== ctx.inputs.customerId) {
    throw new RejectedInputError(
      `${id} belongs to ${String(account.customerId ?? 'the platform')}, not to the customer given, ${ctx.inputs.customerId}.`,
      { input: 'account', reason: 'NOT_THE_CUSTOMERS' },
    );
  }
  ctx.resources.accountId = id;
  ctx.reused.push('accountId');
  return account;
}

/**
 * The individual the scenario acts for: the given customer (or the owner of the given account), which must be
 * KYC-approved, or a new one with `fullName` and the customer.… values to set.
 */
export async function createIndividual(ctx: TriggerContext, fullName: string, complete = true): Promise<Body> {
  const account = await ownAccount(ctx, 'USD');
  const existing = ctx.inputs.customerId ?? (typeof account?.customerId === 'string' ? account.customerId : undefined);
  if (existing) {
    const input = ctx.inputs.customerId ? 'customer' : 'account';
    const customer = await own(ctx, `/customers/${existing}`, input);
    if (customer.kycStatus !== 'APPROVED') {
      throw new RejectedInputError(
        `customer ${existing} has kycStatus ${String(customer.kycStatus ?? customer.kybStatus)}; this scenario needs an APPROVED individual.`,
        { input, reason: 'NOT_APPROVED' },
      );
    }
    ctx.resources.customerId = existing;
    ctx.reused.push('customerId');
    return customer;
  }
  const body = withSet(ctx.inputs, 'customer', individualBody(fullName, complete));
  ctx.progress(`Creating customer "${String(body.fullName)}"`);
  const customer = await call(ctx, 'POST', '/customers', body);
  ctx.resources.customerId = field(customer, 'id', 'POST /customers');
  return customer;
}

/** The USD account of the scenario's customer: the given account, or the customer's own. */
export async function usdAccount(ctx: TriggerContext): Promise<Body> {
  if (ctx.resources.accountId) return { id: ctx.resources.accountId };
  const usd = accountIn(await customerAccounts(ctx, ctx.resources.customerId!), 'USD');
  if (!usd)
    throw new ApiError({
      status: 200,
      code: 'INVALID_RESPONSE',
      message: `${ctx.resources.customerId} has no USD internal account`,
    });
  ctx.resources.accountId = field(usd, 'id', 'the internal account list');
  return usd;
}

/** Pages of a list the scenarios read (up to 100 items each) before they give up looking in it. */
const MAX_LIST_PAGES = 10;

/**
 * A customer's internal account by id: the public API reads internal accounts only through lists
 * (there is no GET /internal-accounts/{id}), so it is looked for in `customerId`'s list, or in every
 * customer's. Undefined when it is in none.
 */
export async function findAccount(ctx: TriggerContext, id: string, customerId?: string): Promise<Body | undefined> {
  const query = new URLSearchParams({ limit: '100' });
  if (customerId) query.set('customerId', customerId);
  return findInList<Body>(ctx.client, `/customers/internal-accounts?${query}`, (a) => a.id === id, {
    maxPages: MAX_LIST_PAGES,
    signal: ctx.signal,
  });
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
