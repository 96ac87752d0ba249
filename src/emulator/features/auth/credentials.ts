/**
 * Credentials (the spec's AuthMethod): how a user proves who they are before a session is made.
 * PASSKEY credentials carry the registered WebAuthn key.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';

export type AuthMethodType = 'OAUTH' | 'EMAIL_OTP' | 'SMS_OTP' | 'PASSKEY';

export interface AuthMethodRec {
  id: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  /** PASSKEY only: the registered WebAuthn credential. */
  passkey?: { credentialId: string; publicKey: string; signCount: number; transports?: string[] };
  /** OAUTH only: the identity the registration token named; verify tokens must name the same. */
  oauth?: { iss: string; aud: string; sub: string };
}

/** Kept under its old state-file name, so existing --state files load. */
export const authMethods = durableTable<AuthMethodRec>('authMethods', {
  id: 'string',
  accountId: 'string',
  type: 'string',
  nickname: 'string',
  createdAt: 'string',
  updatedAt: 'string',
  passkey: 'object?',
  oauth: 'object?',
});
const byAccount = tableIndex<AuthMethodRec>((m) => m.accountId);
/** OTP credentials by where their codes go (`EMAIL_OTP ann@example.com`): a contact is one credential's. */
export const byOtpContact = tableIndex<AuthMethodRec>((m) => (isOtp(m) ? `${m.type} ${m.nickname}` : undefined));

export function getCredential(emu: EmulatorContext, id: string): AuthMethodRec {
  const method = emu.table(authMethods).get(id);
  if (!method) throw notFound('AuthMethod', id);
  return method;
}

export function isOtp(method: AuthMethodRec): boolean {
  return method.type === 'EMAIL_OTP' || method.type === 'SMS_OTP';
}

/** The credentials of one internal account, oldest first. */
export function credentialsOf(emu: EmulatorContext, accountId: string): AuthMethodRec[] {
  return emu.table(authMethods).where(byAccount, accountId);
}

/** AuthMethod: credentialId only for PASSKEY (the spec's AuthSession row). */
export function renderAuthMethod(m: AuthMethodRec): Record<string, unknown> {
  return {
    id: m.id,
    accountId: m.accountId,
    type: m.type,
    ...(m.passkey ? { credentialId: m.passkey.credentialId } : {}),
    nickname: m.nickname,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}
