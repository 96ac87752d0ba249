/**
 * Reading a POST /quotes body into a priced quote: field checks (every bad field at once), the
 * accounts behind the ids, the refusals the description and the spec name, and the price from the
 * one rate table.
 */
import { UMA_ADDRESS_PATTERN, idPattern } from '../../../service/identifiers.js';
import type { ScaFactor } from '../../../service/index.js';
import { UMA_DESTINATION_SCENARIOS, umaScenario } from '../../../service/money-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req } from '../../kernel/router.js';
import { PLATFORM_OWNER, accounts } from '../accounts/accounts.js';
import { CURRENCY_CODES } from '../accounts/currencies.js';
import { FUNDING_CURRENCIES } from './funding.js';
import { price, rates } from '../exchange-rates/rates.js';
import { needsOwnershipProof } from '../external-accounts/ownership.js';
import { externalAccounts, shownCurrency } from '../external-accounts/records.js';
import { PULL_CAPABLE } from '../external-accounts/variants.js';
import { callerMaySee } from '../accounts/caller.js';
import { checkSizeLimit } from '../transactions/limits.js';
import type { DestinationKind, QuoteInit, SourceKind } from './quotes.js';

/** An ACCOUNT source or destination names an internal or an external account. */
/** What the sandbox's UMA receivers hold: its scenario addresses' currencies (customers: USD and EUR). */
const UMA_CURRENCIES = [...new Set(UMA_DESTINATION_SCENARIOS.map((s) => s.currency))];

const ACCOUNT_ID = new RegExp(`${idPattern('InternalAccount').source}|${idPattern('ExternalAccount').source}`);

function inputError(field: string, message: string): never {
  throw badRequest('INVALID_INPUT', message, { errors: [{ field, message }] });
}

/**
 * The account behind an ACCOUNT source or destination: its kind, currency and owner; undefined when
 * unknown (or not the caller's), which the caller answers 400 naming the field: POST /quotes declares no 404.
 */
function endpoint(
  req: Req,
  emu: EmulatorContext,
  id: string,
):
  | {
      kind: 'INTERNAL' | 'EXTERNAL';
      currency: string;
      customerId?: string;
      wallet?: boolean;
      pullable?: boolean;
      unverified?: boolean;
    }
  | undefined {
  if (id.startsWith('InternalAccount:')) {
    const a = emu.table(accounts).get(id);
    if (!a || !callerMaySee(req, a.customerId)) return undefined;
    return {
      kind: 'INTERNAL',
      currency: a.currency,
      ...(a.customerId !== PLATFORM_OWNER ? { customerId: a.customerId } : {}),
      wallet: a.type === 'EMBEDDED_WALLET',
    };
  }
  const e = emu.table(externalAccounts).get(id);
  if (!e || !callerMaySee(req, e.customerId)) return undefined;
  return {
    kind: 'EXTERNAL',
    currency: shownCurrency(e),
    ...(e.customerId ? { customerId: e.customerId } : {}),
    pullable: PULL_CAPABLE.has(String(e.accountInfo.accountType)),
    unverified: needsOwnershipProof(e),
  };
}

export function readQuoteRequest(req: Req, emu: EmulatorContext): { init: QuoteInit; immediately: boolean } {
  // The body's shape (required fields, types, the description's enums and lengths, each end's tag and
  // its branch) is checked before this runs; what is read here are the emulator's rules beyond it.
  const f = new Fields(req.json());
  const src = f.object('source');
  const sourceType = src?.string('sourceType');
  const sourceAccountId = sourceType === 'ACCOUNT' ? src?.string('accountId', { pattern: ACCOUNT_ID }) : undefined;
  const fundingCurrency =
    sourceType === 'REALTIME_FUNDING' ? src?.string('currency', { enum: FUNDING_CURRENCIES }) : undefined;
  const sourceCustomerId = src?.string('customerId', { pattern: idPattern('Customer') });
  const dst = f.object('destination');
  const destinationType = dst?.string('destinationType');
  const destinationAccountId =
    destinationType === 'ACCOUNT' ? dst?.string('accountId', { pattern: ACCOUNT_ID }) : undefined;
  const umaAddress =
    destinationType === 'UMA_ADDRESS' ? dst?.string('umaAddress', { pattern: UMA_ADDRESS_PATTERN }) : undefined;
  // A currency the description names; whether this destination can receive it is checked below.
  const destCurrency = dst?.string('currency', { enum: CURRENCY_CODES });
  const paymentRail = dst?.string('paymentRail');
  const side = f.string('lockedCurrencySide') as 'SENDING' | 'RECEIVING' | undefined;
  // More than nothing is the emulator's rule; the description's maximum is checked with the shape.
  const amount = f.integer('lockedCurrencyAmount', { min: 1 });
  const immediately = f.boolean('immediatelyExecute') ?? false;
  const description = f.string('description', { maxLength: 500 });
  const remittanceInformation = f.string('remittanceInformation');
  const purposeOfPayment = f.string('purposeOfPayment');
  // SMS_OTP or PASSKEY (the schema check refuses TOTP): the factor an SCA challenge should use.
  const scaFactor = f.string('scaFactor') as ScaFactor | undefined;
  const source = sourceAccountId ? endpoint(req, emu, sourceAccountId) : undefined;
  const dest = destinationAccountId ? endpoint(req, emu, destinationAccountId) : undefined;
  if (sourceAccountId && !source) f.add('source.accountId', `account ${sourceAccountId} not found`);
  if (destinationAccountId && !dest) f.add('destination.accountId', `account ${destinationAccountId} not found`);
  f.done();

  const sourceKind: SourceKind = source ? source.kind : 'REALTIME_FUNDING';
  if (immediately && sourceKind === 'REALTIME_FUNDING')
    inputError('immediatelyExecute', 'a real-time-funding quote is executed by paying its payment instructions');
  if (immediately && source?.wallet)
    inputError(
      'immediatelyExecute',
      'an embedded-wallet source is executed with a signed POST /quotes/{quoteId}/execute',
    );
  if (source?.kind === 'EXTERNAL' && !source.pullable)
    inputError('source.accountId', `${sourceAccountId} cannot be pulled from: only bank accounts have a debit rail`);
  if (sourceAccountId && sourceAccountId === destinationAccountId)
    throw badRequest('SELF_PAYMENT', 'The source and the destination are the same account');
  if (dest?.unverified) {
    throw badRequest(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      `${destinationAccountId} must prove ownership first (POST /customers/external-accounts/{id}/challenge)`,
    );
  }
  // A UMA receiver of the sandbox (a scenario address, an emulator customer) receives only the
  // currencies the emulator holds accounts in.
  if (umaAddress && destCurrency && !UMA_CURRENCIES.includes(destCurrency))
    inputError(
      'destination.currency',
      `UMA receivers of the sandbox receive ${UMA_CURRENCIES.join(', ')}, not ${destCurrency}`,
    );
  const scenario = umaAddress ? umaScenario(umaAddress) : undefined;
  const receivingCurrency = dest?.currency ?? destCurrency ?? scenario?.currency ?? 'USD';
  if (scenario && receivingCurrency !== scenario.currency)
    throw badRequest('INVALID_CURRENCY', `${umaAddress} receives ${scenario.currency}, not ${receivingCurrency}`);
  if (dest && destCurrency && destCurrency !== dest.currency) {
    throw badRequest(
      'INVALID_CURRENCY',
      `destination.currency ${destCurrency} does not match the account's currency ${dest.currency}`,
    );
  }
  const sendingCurrency = source?.currency ?? fundingCurrency!;
  const priced = price(rates(emu), sendingCurrency, receivingCurrency, side!, amount!);
  if (!priced) throw badRequest('INVALID_AMOUNT', `lockedCurrencyAmount must exceed the fee of the quote`);
  checkSizeLimit(emu, sendingCurrency, priced.totalSendingAmount);
  checkSizeLimit(emu, receivingCurrency, priced.totalReceivingAmount);
  const destinationKind: DestinationKind = dest ? dest.kind : 'UMA';
  const customerId = sourceCustomerId ?? source?.customerId ?? dest?.customerId;
  const init: QuoteInit = {
    ...priced,
    source: sourceAccountId
      ? {
          sourceType: 'ACCOUNT',
          accountId: sourceAccountId,
          ...(sourceCustomerId ? { customerId: sourceCustomerId } : {}),
        }
      : {
          sourceType: 'REALTIME_FUNDING',
          currency: fundingCurrency,
          ...(sourceCustomerId ? { customerId: sourceCustomerId } : {}),
        },
    destination: destinationAccountId
      ? { destinationType: 'ACCOUNT', accountId: destinationAccountId, ...(paymentRail ? { paymentRail } : {}) }
      : { destinationType: 'UMA_ADDRESS', umaAddress, currency: receivingCurrency },
    sourceKind,
    ...(sourceAccountId ? { sourceAccountId } : {}),
    destinationKind,
    destinationId: (destinationAccountId ?? umaAddress)!,
    ...(customerId ? { customerId } : {}),
    sendingCurrency,
    receivingCurrency,
    lockedCurrencySide: side!,
    lockedCurrencyAmount: amount!,
    ...(scaFactor ? { scaFactor } : {}),
    extra: Object.fromEntries(
      Object.entries({ description, remittanceInformation, purposeOfPayment }).filter(([, v]) => v !== undefined),
    ),
  };
  return { init, immediately };
}
