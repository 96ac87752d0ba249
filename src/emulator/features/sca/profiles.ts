/**
 * What the emulator keeps per SCA customer: enrolled factors, the login session and lockout, the
 * login, trust and reset ceremonies in progress, and the trusted beneficiaries. One durable record
 * per customer, made on first use; only customers of an SCA region (customers/region.ts) have one.
 */
import { idPattern } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, conflict } from '../../kernel/errors.js';
import type { Req } from '../../kernel/router.js';
import { durableTable } from '../../kernel/tables.js';
import { type CustomerRec, customerOr404 } from '../customers/customers.js';
import { needsSca } from '../customers/region.js';
import type { Challenge } from './challenge.js';

interface PasskeyFactor {
  credentialId: string;
  /** SEC1 hex of the credential's P-256 key, from its attestation. */
  publicKey: string;
  signCount: number;
  name?: string;
}

export interface ScaProfile {
  customerId: string;
  totp?: { secret: string };
  /** TOTP secrets handed out by enrollment starts and not yet confirmed. */
  totpPending: string[];
  passkey?: PasskeyFactor;
  /** The WebAuthn challenge of the passkey enrollment in progress. */
  passkeyEnrollment?: string;
  failedAttempts: number;
  lockedUntilMs?: number;
  suspended: boolean;
  sessionExpiresAtMs?: number;
  /** The login started and not completed. */
  login?: { factor: string; challengeId?: string; webauthnChallenge?: string; expiresAtMs: number };
  /** A trust or untrust started and not confirmed. */
  trustChange?: { externalAccountId: string; trust: boolean; challenge: Challenge };
  trusted: string[];
  /** When the last reset starts were made (the description's limit: 5 a day). */
  resetStartsMs: number[];
}

export const scaProfiles = durableTable<ScaProfile>('scaProfiles', {
  customerId: 'string',
  totp: 'object?',
  totpPending: 'array',
  passkey: 'object?',
  passkeyEnrollment: 'string?',
  failedAttempts: 'number',
  lockedUntilMs: 'number?',
  suspended: 'boolean',
  sessionExpiresAtMs: 'number?',
  login: 'object?',
  trustChange: 'object?',
  trusted: 'array',
  resetStartsMs: 'array',
});

/** The customer's record, made on first use. */
export function profileOf(emu: EmulatorContext, customerId: string): ScaProfile {
  const table = emu.table(scaProfiles);
  return (
    table.get(customerId) ??
    table.set(customerId, {
      customerId,
      totpPending: [],
      failedAttempts: 0,
      suspended: false,
      trusted: [],
      resetStartsMs: [],
    })
  );
}

export const saveProfile = (emu: EmulatorContext, profile: ScaProfile): void => {
  emu.table(scaProfiles).set(profile.customerId, profile);
};

/** 409 CONFLICT for a customer outside the SCA regions (the description's answer on every SCA operation). */
export function requireScaCustomer(customer: CustomerRec): void {
  if (!needsSca(customer))
    throw conflict(
      'CONFLICT',
      `SCA is not required for customer ${customer.id}: only customers of an SCA region (region in the EEA) use it`,
    );
}

/**
 * The `?customerId=` of the /sca operations (its presence is the description's, checked before the
 * handler runs): 404 USER_NOT_FOUND when it is not a customer's id or names no customer (every /sca
 * operation declares 404 "customer not found"), 409 outside SCA regions.
 */
export function scaCustomerOf(emu: EmulatorContext, req: Req): { customer: CustomerRec; profile: ScaProfile } {
  const id = req.query.get('customerId');
  if (!id || !idPattern('Customer').test(id))
    throw new HttpError(
      404,
      'USER_NOT_FOUND',
      "The customerId query parameter must be a customer's id (Customer:<uuid>)",
      {
        details: { field: 'customerId' },
      },
    );
  const customer = customerOr404(emu, id);
  requireScaCustomer(customer);
  return { customer, profile: profileOf(emu, customer.id) };
}

/** Whether the customer trusts this external account (quotes to it need no SCA; it cannot be deleted). */
export function isTrusted(emu: EmulatorContext, customerId: string | undefined, externalAccountId: string): boolean {
  return (
    customerId !== undefined && (emu.table(scaProfiles).get(customerId)?.trusted.includes(externalAccountId) ?? false)
  );
}
