/**
 * SCA challenges and their proofs, shared by quotes (`POST /quotes/{id}/authorize`), beneficiary
 * trust and SCA login. A challenge is issued for one factor: SMS_OTP, the description's default, or
 * the factor the caller prefers where the customer has it (PASSKEY comes with WebAuthn assertion
 * options), and lists every factor that may satisfy it. A proof is the sandbox's fixed code for SMS_OTP (and TOTP where allowed) or a
 * real WebAuthn assertion by the enrolled passkey (auth/webauthn.ts checks it). A wrong or late
 * proof is 400 INVALID_INPUT naming the field; a locked customer is 423 ACCOUNT_LOCKED.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  LOCKOUT_LADDER,
  SANDBOX_SCA_CODE,
  SCA_TIMINGS,
  SUSPENDED_AFTER_ATTEMPTS,
  type ScaFactor,
} from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, invalidInput } from '../../kernel/errors.js';
import type { Fields } from '../../kernel/fields.js';
import { RP_ID, verifyAssertion } from '../auth/webauthn.js';
import type { ScaProfile } from './profiles.js';

/** Where an SCA passkey ceremony may run: the emulator's relying party is localhost (auth/webauthn.ts). */
export const ALLOWED_ORIGINS = [`https://${RP_ID}`, `http://${RP_ID}`];

export interface Challenge {
  id: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  expiresAtMs: number;
  purpose?: string;
  /** The WebAuthn challenge a PASSKEY assertion must sign. */
  webauthnChallenge?: string;
}

/**
 * A new challenge. `allowTotp`: TOTP cannot carry dynamic linking, so the description keeps it off
 * per-transaction challenges; a beneficiary trust change may use it. `preferred`: a quote's
 * `scaFactor`, honoured where the customer has that factor (the description calls it a preference).
 */
export function issueChallenge(
  emu: EmulatorContext,
  profile: ScaProfile,
  options: { purpose?: string; allowTotp?: boolean; expiresAtMs?: number; preferred?: ScaFactor } = {},
): Challenge {
  const available: ScaFactor[] = ['SMS_OTP'];
  if (options.allowTotp && profile.totp) available.push('TOTP');
  if (profile.passkey) available.push('PASSKEY');
  const expiresAtMs = Math.min(options.expiresAtMs ?? Number.POSITIVE_INFINITY, emu.now() + SCA_TIMINGS.challengeMs);
  return {
    id: `ScaChallenge:${randomUUID()}`,
    factor: options.preferred && available.includes(options.preferred) ? options.preferred : 'SMS_OTP',
    availableFactors: available,
    expiresAtMs,
    ...(options.purpose ? { purpose: options.purpose } : {}),
    ...(profile.passkey ? { webauthnChallenge: randomBytes(32).toString('base64url') } : {}),
  };
}

/** WebAuthn PublicKeyCredentialRequestOptions for the enrolled passkey. */
export function assertionOptions(profile: ScaProfile, challenge: string): Record<string, unknown> {
  return {
    challenge,
    rpId: RP_ID,
    timeout: SCA_TIMINGS.challengeMs,
    userVerification: 'preferred',
    allowCredentials: profile.passkey ? [{ type: 'public-key', id: profile.passkey.credentialId }] : [],
  };
}

/** The description's ScaChallenge. */
export function renderChallenge(emu: EmulatorContext, profile: ScaProfile, c: Challenge): Record<string, unknown> {
  return {
    id: c.id,
    expiresAt: emu.iso(c.expiresAtMs),
    factor: c.factor,
    availableFactors: c.availableFactors,
    ...(c.purpose ? { purpose: c.purpose } : {}),
    ...(c.factor === 'PASSKEY' && c.webauthnChallenge
      ? { passkeyAssertionOptions: assertionOptions(profile, c.webauthnChallenge) }
      : {}),
  };
}

export interface Proof {
  code?: string;
  assertion?: Record<string, unknown>;
  origin?: string;
}

/**
 * The proof fields of ScaAuthorization and its relatives: a code, or an assertion with its origin.
 * Their types are the description's, checked before the handler runs, and so is "a code, or an
 * assertion and its origin" where the request's schema says it (login complete, trust confirm). Kept
 * here: not both at once, and the same rule for `POST /quotes/{id}/authorize`, whose schema leaves
 * every field optional, and for a `code: null` the schema counts as given.
 */
export function readProof(f: Fields): Proof {
  const code = f.raw('code') === null ? undefined : f.string('code');
  const assertionFields = f.raw('passkeyAssertion') === null ? undefined : f.object('passkeyAssertion');
  const origin = f.raw('origin') === null ? undefined : f.string('origin');
  const assertion = assertionFields ? (f.raw('passkeyAssertion') as Record<string, unknown>) : undefined;
  if (code !== undefined && assertion !== undefined)
    f.add('passkeyAssertion', 'send either code or passkeyAssertion, not both');
  else if (code === undefined && assertion === undefined && !f.has('code') && !f.has('passkeyAssertion'))
    f.add('code', 'code (SMS_OTP or TOTP) or passkeyAssertion with origin (PASSKEY) is required');
  if (assertion !== undefined && origin === undefined && !f.has('origin'))
    f.add('origin', 'origin is required with passkeyAssertion');
  return {
    ...(code !== undefined ? { code } : {}),
    ...(assertion ? { assertion } : {}),
    ...(origin ? { origin } : {}),
  };
}

/** 423 ACCOUNT_LOCKED while the customer's login is locked or suspended. */
export function checkNotLocked(emu: EmulatorContext, profile: ScaProfile): void {
  if (profile.suspended)
    throw new HttpError(
      423,
      'ACCOUNT_LOCKED',
      'The customer is suspended after too many failed logins; record RESET_PASSWORD_COMPLETED to clear it',
      {
        details: { lockedUntil: null, suspended: true },
      },
    );
  if (profile.lockedUntilMs !== undefined && profile.lockedUntilMs > emu.now())
    throw new HttpError(
      423,
      'ACCOUNT_LOCKED',
      `The customer's login is locked until ${emu.iso(profile.lockedUntilMs)}`,
      {
        details: { lockedUntil: emu.iso(profile.lockedUntilMs) },
      },
    );
}

/** One more failed login on the description's ladder (5 → 15 min … 9 → suspended). */
export function recordFailedLogin(emu: EmulatorContext, profile: ScaProfile): void {
  profile.failedAttempts += 1;
  if (profile.failedAttempts >= SUSPENDED_AFTER_ATTEMPTS) {
    profile.suspended = true;
    delete profile.lockedUntilMs;
    delete profile.sessionExpiresAtMs;
    return;
  }
  const step = [...LOCKOUT_LADDER].reverse().find((s) => profile.failedAttempts >= s.attempts);
  if (step) profile.lockedUntilMs = emu.now() + step.lockMs;
}

const credentialField = (o: Record<string, unknown>, ...names: string[]): string => {
  for (const name of names) {
    const v = name.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown> | undefined)?.[k], o);
    if (typeof v === 'string') return v;
  }
  return '';
};

/**
 * Checks a proof against what the challenge (or login) allows; throws 400 INVALID_INPUT naming the
 * field. `factors` are the factors accepted; `webauthnChallenge` is what an assertion must sign.
 */
export function checkProof(
  emu: EmulatorContext,
  profile: ScaProfile,
  proof: Proof,
  expected: { factors: readonly ScaFactor[]; webauthnChallenge?: string; expiresAtMs: number },
): void {
  if (expected.expiresAtMs <= emu.now())
    throw invalidInput(
      [{ field: proof.assertion ? 'passkeyAssertion' : 'code', message: 'the challenge has expired' }],
      'Invalid or expired proof: the challenge has expired',
    );
  if (proof.code !== undefined) {
    if (!expected.factors.includes('SMS_OTP') && !expected.factors.includes('TOTP'))
      throw invalidInput([{ field: 'code', message: 'this challenge takes a passkeyAssertion, not a code' }]);
    if (proof.code !== SANDBOX_SCA_CODE)
      throw invalidInput(
        [{ field: 'code', message: `code is not the one sent (in the sandbox it is always ${SANDBOX_SCA_CODE})` }],
        'Invalid or expired proof: wrong code',
      );
    return;
  }
  const passkey = profile.passkey;
  if (!expected.factors.includes('PASSKEY') || !passkey || !expected.webauthnChallenge)
    throw invalidInput([{ field: 'passkeyAssertion', message: 'no passkey may satisfy this challenge' }]);
  if (!ALLOWED_ORIGINS.some((o) => proof.origin === o || proof.origin?.startsWith(`${o}:`)))
    throw invalidInput([
      { field: 'origin', message: `origin must be one of ${ALLOWED_ORIGINS.join(', ')} (any port)` },
    ]);
  const a = proof.assertion!;
  const credentialId = credentialField(a, 'credentialId', 'id');
  if (credentialId !== passkey.credentialId)
    throw invalidInput([{ field: 'passkeyAssertion.credentialId', message: 'not the enrolled passkey' }]);
  try {
    passkey.signCount = verifyAssertion(
      {
        credentialId,
        clientDataJson: credentialField(a, 'clientDataJson', 'response.clientDataJSON'),
        authenticatorData: credentialField(a, 'authenticatorData', 'response.authenticatorData'),
        signature: credentialField(a, 'signature', 'response.signature'),
      },
      { challenge: expected.webauthnChallenge, publicKey: passkey.publicKey, signCount: passkey.signCount },
    );
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    throw invalidInput([{ field: 'passkeyAssertion', message: error.reason ?? error.message }]);
  }
}
