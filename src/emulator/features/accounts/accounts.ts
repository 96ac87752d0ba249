/**
 * Internal accounts: every customer gets embedded-wallet accounts in USD (listed first) and EUR.
 * Each wallet has its own key-management organization, the organizationId of its payloadToSign.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable } from '../../kernel/tables.js';
import { money } from './currencies.js';

export interface AccountRec {
  id: string;
  customerId: string;
  /** The wallet's key-management sub-organization: the organizationId of its payloadToSign. */
  organizationId: string;
  type: 'EMBEDDED_WALLET';
  status: 'ACTIVE';
  currency: string;
  balance: number;
  createdAt: string;
  updatedAt: string;
}

export const accounts = durableTable<AccountRec>('accounts');

export function createAccount(emu: EmulatorContext, customerId: string, currency = 'USD'): AccountRec {
  const now = emu.iso();
  const account: AccountRec = {
    id: `InternalAccount:${randomUUID()}`,
    customerId,
    organizationId: randomUUID(),
    type: 'EMBEDDED_WALLET',
    status: 'ACTIVE',
    currency,
    balance: 0,
    createdAt: now,
    updatedAt: now,
  };
  return emu.table(accounts).set(account.id, account);
}

/** The customer's account in currency, if it has one. */
export function accountOf(emu: EmulatorContext, customerId: string, currency: string): AccountRec | undefined {
  return emu.table(accounts).find((a) => a.customerId === customerId && a.currency === currency);
}

export function renderAccount(a: AccountRec): Record<string, unknown> {
  return {
    id: a.id,
    customerId: a.customerId,
    type: a.type,
    status: a.status,
    balance: money(a.balance, a.currency),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/** Credits an account; false when the balance would leave the safe-integer range. */
export function credit(account: AccountRec, amount: number, nowIso: string): boolean {
  const next = account.balance + amount;
  if (!Number.isSafeInteger(next)) return false;
  account.balance = next;
  account.updatedAt = nowIso;
  return true;
}
