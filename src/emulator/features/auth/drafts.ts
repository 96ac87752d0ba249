/**
 * What a `POST /auth/credentials` body asks for, per type, and the checks that decide whether it may
 * become a credential: the body's fields (400 INVALID_INPUT listing every bad one), the customer's
 * contact for OTP nicknames (400 MISSING_MANDATORY_USER_INFO), the OIDC token (oidc.ts), the
 * WebAuthn attestation (webauthn.ts) and the one-per-account rules (400 *_ALREADY_EXISTS).
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest, unauthorized } from '../../kernel/errors.js';
import type { Fields } from '../../kernel/fields.js';
import { memoryTable } from '../../kernel/tables.js';
import type { AccountRec } from '../accounts/accounts.js';
import { customers } from '../customers/customers.js';
import { credentialsOf, type AuthMethodRec, type AuthMethodType } from './credentials.js';
import { checkFreshness, parseOidcToken } from './oidc.js';
import { verifyAttestation, type Attestation } from './webauthn.js';

/** The new credential minus id and times. */
export type Draft = Pick<AuthMethodRec, 'type' | 'nickname' | 'passkey' | 'oauth'>;

/** Body fields read per type, before the account is known. */
export interface DraftInput {
  type: AuthMethodType;
  oidcToken?: string;
  nickname?: string;
  challenge?: string;
  attestation?: Attestation & { transports?: string[] };
}

/** Registration challenges already used, so each is good once (the description: "single use"). */
export const usedRegistrationChallenges = memoryTable<{ usedAtMs: number }>('usedRegistrationChallenges');

const NICKNAME = /^[\p{L}\p{N} ._'()-]{1,100}$/u;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Reads the type-specific fields (errors go to the shared Fields list, reported by its done()). Each
 * type's required fields and the transports' values are the description's, checked before the
 * handler runs. Kept here is what its schema leaves to prose: a passkey nickname's rule (applied to
 * the trimmed value) and base64url for the WebAuthn fields (a value that is not is bad input, 400,
 * not a failed ceremony); the long limits are bounds on what is read (a JWT or an attestation
 * outgrows the emulator's default bound on text).
 */
export function readDraftInput(type: AuthMethodType, f: Fields): DraftInput {
  if (type === 'OAUTH') return { type, oidcToken: f.string('oidcToken', { maxLength: 16_384 }) };
  if (type !== 'PASSKEY') return { type };
  const nickname = (f.raw('nickname') as string).trim();
  if (!NICKNAME.test(nickname)) {
    f.add('nickname', "nickname must be 1-100 letters, digits, spaces or . _ - ' ( )", {
      minLength: 1,
      maxLength: 100,
      pattern: NICKNAME.source,
    });
  }
  const challenge = f.string('challenge', { pattern: BASE64URL });
  const a = f.object('attestation');
  const attestation = {
    credentialId: a?.string('credentialId', { pattern: BASE64URL }),
    clientDataJson: a?.string('clientDataJson', { pattern: BASE64URL, maxLength: 8192 }),
    attestationObject: a?.string('attestationObject', { pattern: BASE64URL, maxLength: 65_536 }),
    transports: a?.raw('transports') as string[] | undefined,
  };
  return { type, nickname, challenge, attestation: attestation as DraftInput['attestation'] };
}

function contactOf(emu: EmulatorContext, account: AccountRec, which: 'email' | 'phoneNumber'): string {
  const value = emu.table(customers).get(account.customerId)?.[which];
  if (typeof value !== 'string' || value === '') {
    throw badRequest(
      'MISSING_MANDATORY_USER_INFO',
      `Customer ${account.customerId} has no ${which}: set it on the customer before adding this credential`,
      {
        errors: [{ field: which, message: `the customer's ${which} is the credential's nickname` }],
      },
    );
  }
  return value;
}

/**
 * Turns the input into a draft credential. `initial` is false on a signed retry: the time-bound
 * OIDC checks were made when the challenge was issued, and the one-per-account rules are checked
 * when the retry settles (checkUnique), so an idempotent re-send after success is not a duplicate.
 */
export function prepareDraft(emu: EmulatorContext, account: AccountRec, input: DraftInput, initial: boolean): Draft {
  switch (input.type) {
    case 'EMAIL_OTP':
      return { type: 'EMAIL_OTP', nickname: contactOf(emu, account, 'email') };
    case 'SMS_OTP':
      return { type: 'SMS_OTP', nickname: contactOf(emu, account, 'phoneNumber') };
    case 'OAUTH': {
      const claims = parseOidcToken(input.oidcToken!);
      if (initial) checkFreshness(claims, emu.now());
      return {
        type: 'OAUTH',
        nickname: claims.email ?? claims.sub,
        oauth: { iss: claims.iss, aud: claims.aud, sub: claims.sub },
      };
    }
    case 'PASSKEY': {
      const a = input.attestation!;
      const registered = verifyAttestation(a, input.challenge!);
      const transports = a.transports && a.transports.length > 0 ? { transports: a.transports } : {};
      return { type: 'PASSKEY', nickname: input.nickname!, passkey: { ...registered, ...transports } };
    }
  }
}

/** 400 when the account already has this credential; 401 when the registration challenge was used. */
export function checkUnique(emu: EmulatorContext, accountId: string, draft: Draft, challenge?: string): void {
  const existing = credentialsOf(emu, accountId);
  if (draft.type === 'EMAIL_OTP' && existing.some((m) => m.type === 'EMAIL_OTP')) {
    throw badRequest(
      'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
      `Internal account ${accountId} already has an EMAIL_OTP credential`,
    );
  }
  if (draft.type === 'SMS_OTP' && existing.some((m) => m.type === 'SMS_OTP')) {
    throw badRequest(
      'SMS_OTP_CREDENTIAL_ALREADY_EXISTS',
      `Internal account ${accountId} already has an SMS_OTP credential`,
    );
  }
  if (draft.passkey && existing.some((m) => m.passkey?.credentialId === draft.passkey!.credentialId)) {
    throw badRequest(
      'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
      `WebAuthn credential ${draft.passkey.credentialId} is already registered on ${accountId}`,
    );
  }
  if (challenge !== undefined && emu.table(usedRegistrationChallenges).has(challenge)) {
    throw unauthorized('The registration challenge was already used: ask the platform backend for a new one');
  }
}
