/**
 * External accounts (the description's ExternalAccount): a customer's (or, without customerId,
 * the platform's) bank account or wallet outside the service, the far end of payouts and pulls.
 */
import type { BeneficiaryVerificationStatus } from '../../../service/money-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';

export type ExternalAccountStatus =
  | 'PENDING'
  | 'ACTIVE'
  | 'PENDING_OWNERSHIP_VERIFICATION'
  | 'UNVERIFIED'
  | 'UNDER_REVIEW'
  | 'INACTIVE';

export interface ExternalAccountRec {
  id: string;
  customerId?: string;
  status: ExternalAccountStatus;
  platformAccountId?: string;
  ownershipType?: 'FIRST_PARTY' | 'THIRD_PARTY';
  /** The currency the account was created in: what it receives and what quotes to it are priced in. */
  currency: string;
  /**
   * Set only in records saved by earlier versions, which kept a stablecoin wallet's `currency` as USD
   * and its stablecoin here: the stablecoin is the account's currency.
   */
  asset?: string;
  defaultUmaDepositAccount?: boolean;
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  beneficiaryVerifiedData?: { fullName: string };
  /** The response form: the request's fields plus paymentRails for bank variants. */
  accountInfo: Record<string, unknown>;
  /** Where the magic digits are read (src/service primaryIdentifier). */
  primaryIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

export const externalAccounts = durableTable<ExternalAccountRec>('externalAccounts', {
  id: 'string',
  customerId: 'string?',
  status: 'string',
  platformAccountId: 'string?',
  ownershipType: 'string?',
  currency: 'string',
  asset: 'string?',
  defaultUmaDepositAccount: 'boolean?',
  beneficiaryVerificationStatus: 'string?',
  beneficiaryVerifiedData: 'object?',
  accountInfo: 'object',
  primaryIdentifier: 'string',
  createdAt: 'string',
  updatedAt: 'string',
});
/** A customer's external accounts; the platform's own under ''. */
export const byOwner = tableIndex<ExternalAccountRec>((a) => a.customerId ?? '');

export function renderExternalAccount(a: ExternalAccountRec): Record<string, unknown> {
  const { primaryIdentifier: _internal, asset, ...shown } = a;
  return Object.fromEntries(
    Object.entries({ ...shown, currency: shownCurrency(a) }).filter(([, v]) => v !== undefined),
  );
}

/** The account's currency (a record of an earlier version: its stablecoin). */
export function shownCurrency(a: ExternalAccountRec): string {
  return a.asset ?? a.currency;
}

export function requireExternalAccount(emu: EmulatorContext, id: string): ExternalAccountRec {
  const account = emu.table(externalAccounts).get(id);
  if (!account) throw notFound('ExternalAccount', id);
  return account;
}

/** Moves an account to a new status and tells the platform (EXTERNAL_ACCOUNT.STATUS_UPDATED). */
export function setExternalAccountStatus(
  emu: EmulatorContext,
  account: ExternalAccountRec,
  status: ExternalAccountStatus,
): void {
  if (account.status === status) return;
  account.status = status;
  account.updatedAt = emu.iso();
  emu.changed();
  emu.outbox.emit('EXTERNAL_ACCOUNT.STATUS_UPDATED', renderExternalAccount(account));
}
