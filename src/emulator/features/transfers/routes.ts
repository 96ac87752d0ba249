/**
 * The same-currency transfer endpoints, deprecated by the spec in favour of quotes: every answer
 * carries `Deprecation: true` and a Link to /quotes. transfer-in pulls from an external bank
 * account into an internal account; transfer-out pays an internal account's money out. The
 * external account's magic digits steer both (the spec's transfer table); balances move only when
 * the transfer completes (a payout holds its amount meanwhile, so totalBalance still counts it).
 */
import { idPattern } from '../../../service/identifiers.js';
import { MAX_PAYMENT_AMOUNT } from '../../../service/payment-enums.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, badRequest, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { VERSION_PREFIX } from '../../kernel/server.js';
import type { Reply, Req, Route } from '../../kernel/router.js';
import { requireAccount } from '../accounts/accounts.js';
import { money } from '../accounts/currencies.js';
import { needsOwnershipProof } from '../external-accounts/ownership.js';
import { requireExternalAccount } from '../external-accounts/records.js';
import { PULL_CAPABLE } from '../external-accounts/variants.js';
import { callerMaySee } from '../accounts/caller.js';
import { startTransaction } from '../transactions/course.js';
import { idempotencyKey, recall, remember } from '../../kernel/idempotency.js';
import { checkSizeLimit } from '../transactions/limits.js';
import { transferPlan } from '../transactions/plans.js';
import { renderTransaction } from '../transactions/transactions.js';

function deprecated(reply: Reply, emu: EmulatorContext): Reply {
  return {
    ...reply,
    headers: {
      ...reply.headers,
      Deprecation: 'true',
      Link: `<${emu.origin}${VERSION_PREFIX}/quotes>; rel="successor-version"`,
    },
  };
}

/** An agent moves its own customer's money only: anything else is unknown to it. */
function visible<T extends { id: string; customerId?: string }>(req: Req, record: T): T {
  if (!callerMaySee(req, record.customerId)) throw notFound(record.id.slice(0, record.id.indexOf(':')), record.id);
  return record;
}

function sameCurrency(external: string, internal: string): void {
  if (external !== internal)
    throw badRequest(
      'INVALID_CURRENCY',
      `Same-currency transfers only (${external} ≠ ${internal}); use POST /quotes to convert`,
    );
}

interface Party {
  id: string;
  currency: string;
  customerId?: string;
}

/**
 * Both directions are one same-currency DEBIT between an internal account (whose customer owns the
 * transaction) and an external one, whose magic digits steer its course. A pull credits the
 * internal account when it completes; a payout holds its amount meanwhile.
 */
function startTransfer(
  emu: EmulatorContext,
  t: {
    pull: boolean;
    internal: Party;
    external: Party & { primaryIdentifier: string };
    amount: number;
    fields?: Record<string, unknown>;
  },
): Reply {
  const { internal, external, amount } = t;
  const [source, destination] = t.pull ? [external, internal] : [internal, external];
  sameCurrency(external.currency, internal.currency);
  checkSizeLimit(emu, internal.currency, amount);
  const tx = startTransaction(emu, {
    type: t.pull ? 'INCOMING' : 'OUTGOING',
    direction: 'DEBIT',
    fields: {
      ...(internal.customerId ? { customerId: internal.customerId } : {}),
      source: { sourceType: 'ACCOUNT', accountId: source.id, currency: source.currency },
      destination: { destinationType: 'ACCOUNT', accountId: destination.id, currency: destination.currency },
      sentAmount: money(amount, source.currency),
      receivedAmount: money(amount, destination.currency),
      fees: 0,
      ...t.fields,
    },
    ...transferPlan(external.primaryIdentifier, t.pull),
    ...(t.pull ? { credit: { accountId: internal.id, amount } } : { hold: { accountId: internal.id, amount } }),
  });
  return { status: 201, body: renderTransaction(tx) };
}

/**
 * The body's shape (the ends and their accountId required, the description's enums and lengths) is
 * checked before this runs; read here: each id's kind and the amount, which the emulator requires.
 */
function transferIn(body: Record<string, unknown>, emu: EmulatorContext, req: Req): Reply {
  const f = new Fields(body);
  const sourceId = f.object('source')?.string('accountId', { pattern: idPattern('ExternalAccount') });
  const destinationId = f.object('destination')?.string('accountId', { pattern: idPattern('InternalAccount') });
  const amount = f.integer('amount', { required: true, min: 1, max: MAX_PAYMENT_AMOUNT });
  f.done();
  const source = visible(req, requireExternalAccount(emu, sourceId!));
  const destination = visible(req, requireAccount(emu, destinationId!));
  if (!PULL_CAPABLE.has(String(source.accountInfo.accountType))) {
    throw badRequest('INVALID_INPUT', `${source.id} cannot be pulled from`, {
      errors: [{ field: 'source.accountId', message: 'only bank accounts have a debit rail' }],
    });
  }
  return startTransfer(emu, { pull: true, internal: destination, external: source, amount: amount! });
}

function transferOut(body: Record<string, unknown>, emu: EmulatorContext, req: Req): Reply {
  const f = new Fields(body);
  const sourceId = f.object('source')?.string('accountId', { pattern: idPattern('InternalAccount') });
  const dest = f.object('destination');
  const destinationId = dest?.string('accountId', { pattern: idPattern('ExternalAccount') });
  const paymentRail = dest?.string('paymentRail');
  const amount = f.integer('amount', { required: true, min: 1, max: MAX_PAYMENT_AMOUNT });
  const remittanceInformation = f.string('remittanceInformation');
  f.done();
  const source = visible(req, requireAccount(emu, sourceId!));
  const destination = visible(req, requireExternalAccount(emu, destinationId!));
  if (
    paymentRail &&
    Array.isArray(destination.accountInfo.paymentRails) &&
    !destination.accountInfo.paymentRails.includes(paymentRail)
  ) {
    throw badRequest('INVALID_INPUT', `${destination.id} takes ${destination.accountInfo.paymentRails.join(', ')}`, {
      errors: [{ field: 'destination.paymentRail', message: 'not a rail of this account' }],
    });
  }
  if (needsOwnershipProof(destination)) {
    throw badRequest(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      `${destination.id} must prove ownership first (POST /customers/external-accounts/{id}/challenge)`,
    );
  }
  return startTransfer(emu, {
    pull: false,
    internal: source,
    external: destination,
    amount: amount!,
    fields: {
      ...(paymentRail ? { paymentRail, railSelectionMode: 'MANUAL' } : { railSelectionMode: 'AUTO' }),
      ...(remittanceInformation ? { description: remittanceInformation } : {}),
    },
  });
}

function route(
  path: '/transfer-in' | '/transfer-out',
  run: (body: Record<string, unknown>, emu: EmulatorContext, req: Req) => Reply,
): Route {
  return {
    method: 'POST',
    path,
    permission: 'TRANSACT',
    handler(req, emu) {
      try {
        const key = idempotencyKey(req);
        const seen = recall(emu, key, path);
        if (seen) return deprecated(seen, emu);
        return deprecated(remember(emu, key, path, run(req.json(), emu, req)), emu);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        // Refusals are answers of a deprecated endpoint too.
        throw new HttpError(error.status, error.code, error.message, {
          ...(error.details ? { details: error.details } : {}),
          headers: { ...error.headers, Deprecation: 'true' },
        });
      }
    },
  };
}

export const transferRoutes: Route[] = [route('/transfer-in', transferIn), route('/transfer-out', transferOut)];
