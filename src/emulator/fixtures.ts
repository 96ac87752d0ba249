/**
 * The fixtures printed at start: an APPROVED customer with a UMA address, its embedded-wallet
 * internal account with an EMAIL_OTP credential, an ACTIVE card funded by that account, and a
 * real-time-funding quote awaiting payment. Made once per state; a restart keeps them, except that
 * a quote that was paid or expired is replaced so the printed quote can always be paid.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from './context.js';
import { insertCard } from './cards.js';
import { UMA_DOMAIN, insertCustomer } from './customers.js';
import { createQuote } from './quotes.js';
import type { AuthMethodRec, EmulatorFixtures as Fixtures } from './state.js';

function fixtureQuote(emu: EmulatorContext, accountId: string): string {
  return createQuote(emu, {
    sourceCurrency: 'USD',
    destination: { destinationType: 'ACCOUNT', accountId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
    description: 'svc emulator fixture quote',
  }).id;
}

function createFixtures(emu: EmulatorContext): Fixtures {
  const email = `ada@${UMA_DOMAIN}`;
  const customer = insertCustomer(emu, {
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    email,
    kycStatus: 'APPROVED',
    umaAddress: `$ada@${UMA_DOMAIN}`,
  });
  const account = [...emu.state.accounts.values()].find((a) => a.customerId === customer.id && a.currency === 'USD')!;
  const now = emu.iso();
  const credential: AuthMethodRec = { id: `AuthMethod:${randomUUID()}`, accountId: account.id, type: 'EMAIL_OTP', nickname: email, createdAt: now, updatedAt: now };
  emu.state.authMethods.set(credential.id, credential);
  const card = insertCard(emu, customer, [account.id], 'ACTIVE');
  return {
    accountId: account.id,
    credentialId: credential.id,
    email,
    customerId: customer.id,
    cardId: card.id,
    quoteId: fixtureQuote(emu, account.id),
    umaAddress: customer.umaAddress,
  };
}

export function ensureFixtures(emu: EmulatorContext): Fixtures {
  const { state } = emu;
  let fixtures = state.fixtures;
  if (!fixtures || !state.accounts.has(fixtures.accountId) || !state.authMethods.has(fixtures.credentialId)) {
    fixtures = createFixtures(emu);
  } else {
    const quote = state.quotes.get(fixtures.quoteId);
    if (!quote || quote.status !== 'PENDING' || quote.expiresAtMs <= emu.now()) {
      fixtures = { ...fixtures, quoteId: fixtureQuote(emu, fixtures.accountId) };
    }
  }
  state.fixtures = fixtures;
  emu.changed();
  return fixtures;
}
