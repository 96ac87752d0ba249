/**
 * Internal accounts. Every customer gets embedded-wallet accounts in USD (listed first) and EUR;
 * each wallet has its own key-management organization, the organizationId of its payloadToSign.
 * The platform has one account per currency (no customer; INTERNAL_CRYPTO for BTC, USDC, USDT,
 * else INTERNAL_FIAT). `balance` is what is
 * available; `held` is money on its way out (pending payouts), so totalBalance = balance + held.
 */
import { createHash } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';
import { CRYPTO_CURRENCIES, CURRENCY_CODES, money } from './currencies.js';
import { newId } from '../../kernel/ids.js';

/** customerId of the platform's own accounts (rendered without customerId). */
export const PLATFORM_OWNER = '';

export interface AccountRec {
  id: string;
  customerId: string;
  /**
   * The wallet's key-management sub-organization, when a state file of an earlier version stored
   * one; else derived from the id (organizationOf).
   */
  organizationId?: string;
  type: 'EMBEDDED_WALLET' | 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO';
  status: 'ACTIVE';
  currency: string;
  balance: number;
  /** Pending outgoing money, still part of totalBalance (absent in state files of older versions). */
  held?: number;
  /** EMBEDDED_WALLET only (PATCH /internal-accounts/{id}). */
  privateEnabled?: boolean;
  /** The sandbox recovery phrase export seals (signed.ts); a secret, never rendered. */
  mnemonic?: string;
  createdAt: string;
  updatedAt: string;
}

export const accounts = durableTable<AccountRec>('accounts', {
  id: 'string',
  customerId: 'string',
  organizationId: 'string?',
  type: 'string',
  status: 'string',
  currency: 'string',
  balance: 'number',
  held: 'number?',
  privateEnabled: 'boolean?',
  mnemonic: 'string?',
  createdAt: 'string',
  updatedAt: 'string',
});
/** A customer's accounts (the platform's under PLATFORM_OWNER). */
export const byCustomer = tableIndex<AccountRec>((a) => a.customerId);

export function createAccount(
  emu: EmulatorContext,
  customerId: string,
  currency = 'USD',
  type: AccountRec['type'] = 'EMBEDDED_WALLET',
): AccountRec {
  const now = emu.iso();
  const account: AccountRec = {
    id: newId('InternalAccount'),
    customerId,
    type,
    status: 'ACTIVE',
    currency,
    balance: 0,
    ...(type === 'EMBEDDED_WALLET' ? { privateEnabled: false } : {}),
    createdAt: now,
    updatedAt: now,
  };
  return emu.table(accounts).set(account.id, account);
}

/**
 * The wallet's key-management sub-organization (the organizationId of its payloadToSign): a uuid
 * derived from the account id, the same on every call and across restarts, so the record need not
 * store one (36 bytes a wallet, two wallets a customer: test/bench/growth.mjs).
 */
export function organizationOf(account: AccountRec): string {
  if (account.organizationId !== undefined) return account.organizationId;
  const hex = createHash('sha256').update(`organization:${account.id}`).digest('hex');
  // A version-4 uuid's shape: version nibble 4, variant bits 10.
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The platform's accounts, one per currency the description names (INTERNAL_CRYPTO for BTC and
 * the stablecoins), made when missing: every currency can be funded, quoted from and transferred.
 */
export function ensurePlatformAccounts(emu: EmulatorContext): void {
  for (const code of CURRENCY_CODES) {
    if (!accountOf(emu, PLATFORM_OWNER, code))
      createAccount(emu, PLATFORM_OWNER, code, CRYPTO_CURRENCIES.has(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT');
  }
}

/** The customer's account in currency, if it has one. */
export function accountOf(emu: EmulatorContext, customerId: string, currency: string): AccountRec | undefined {
  return emu
    .table(accounts)
    .where(byCustomer, customerId)
    .find((a) => a.currency === currency);
}

export function requireAccount(emu: EmulatorContext, id: string): AccountRec {
  const account = emu.table(accounts).get(id);
  if (!account) throw notFound('InternalAccount', id);
  return account;
}

export function renderAccount(a: AccountRec): Record<string, unknown> {
  return {
    id: a.id,
    ...(a.customerId !== PLATFORM_OWNER ? { customerId: a.customerId } : {}),
    type: a.type,
    status: a.status,
    balance: money(a.balance, a.currency),
    totalBalance: money(a.balance + (a.held ?? 0), a.currency),
    fundingPaymentInstructions: [],
    ...(a.type === 'EMBEDDED_WALLET' ? { privateEnabled: a.privateEnabled ?? false } : {}),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
