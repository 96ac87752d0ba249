import { INVALID_OTP_REASON, LEGACY_WALLET_SIGNATURE, SANDBOX_OTP_CODE } from '../../service/index.js';
import type { Scenario } from '../scenario.js';

/**
 * The spec's "Auth magic values" that a script can exercise on an existing EMAIL_OTP or SMS_OTP
 * credential: the fixed code, any other code, and the legacy wallet signature.
 */
export function auth(): Scenario[] {
  const otp = (name: string, field: string, value: string, expect: Record<string, string>, spec: string): Scenario => ({
    name,
    area: 'auth',
    magic: { field, value },
    expect,
    spec,
    recipe: 'otp-login',
    delayMs: 0,
  });
  return [
    otp(
      'auth.otp-code',
      'otp_code',
      SANDBOX_OTP_CODE,
      { httpStatus: '200' },
      'the fixed sandbox code verifies (real HPKE and signature checks still run)',
    ),
    otp(
      'auth.otp-wrong-code',
      'otp_code',
      '123456',
      { httpStatus: '401', code: 'UNAUTHORIZED', reason: INVALID_OTP_REASON },
      'any other decrypted code is 401 UNAUTHORIZED',
    ),
    otp(
      'auth.legacy-wallet-signature',
      'Service-Wallet-Signature',
      LEGACY_WALLET_SIGNATURE,
      { httpStatus: '204' },
      'the legacy value is still accepted in place of a stamp (here: revoking the session just made)',
    ),
  ];
}
