/**
 * SCA on quotes, as the description tells it. For a payer of an SCA region (customers/region.ts),
 * unless the destination is a beneficiary the payer trusts:
 * - a real-time-funding quote is created PENDING_AUTHORIZATION (202) with an `scaChallenge` and its
 *   `paymentInstructions` withheld until authorized;
 * - executing an account-funded quote does not move money: it answers 200 with the quote
 *   PENDING_AUTHORIZATION and a challenge, and the authorization releases the transfer.
 * One challenge per quote (the description allows a count that may shrink to one).
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { accounts } from '../accounts/accounts.js';
import { customers } from '../customers/customers.js';
import { needsSca } from '../customers/region.js';
import { externalAccounts } from '../external-accounts/records.js';
import { issueChallenge } from '../sca/challenge.js';
import { isTrusted, profileOf } from '../sca/profiles.js';
import type { QuoteRec } from './quotes.js';

/** The customer whose money the quote moves: the source account's owner, or the funding customer. */
export function payerOf(emu: EmulatorContext, quote: QuoteRec): string | undefined {
  if (quote.sourceKind === 'INTERNAL') return emu.table(accounts).get(quote.sourceAccountId!)?.customerId;
  if (quote.sourceKind === 'EXTERNAL') return emu.table(externalAccounts).get(quote.sourceAccountId!)?.customerId;
  const funding = quote.source.customerId;
  return typeof funding === 'string' ? funding : undefined;
}

/** Whether moving this quote's money needs an SCA challenge first. */
export function scaNeeded(emu: EmulatorContext, quote: QuoteRec): boolean {
  const payer = payerOf(emu, quote);
  if (!payer || !needsSca(emu.table(customers).get(payer))) return false;
  return !(quote.destinationKind === 'EXTERNAL' && isTrusted(emu, payer, quote.destinationId));
}

/** Puts the quote in PENDING_AUTHORIZATION with a new challenge; `release` is what authorizing does. */
export function requireAuthorization(emu: EmulatorContext, quote: QuoteRec, release: 'EXECUTE' | 'INSTRUCTIONS'): void {
  const customerId = payerOf(emu, quote)!;
  const profile = profileOf(emu, customerId);
  quote.sca = {
    release,
    customerId,
    challenge: issueChallenge(emu, profile, {
      purpose: release === 'EXECUTE' ? 'PAYOUT' : 'TRANSFER',
      expiresAtMs: quote.expiresAtMs,
      ...(quote.scaFactor ? { preferred: quote.scaFactor } : {}),
    }),
  };
}
