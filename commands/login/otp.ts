/** `svc login otp`: the OTP login, exactly `svc otp verify` (same flags, same run). */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';

export type LoginOtpOptions = OptionsOf<typeof verbs.otp>;

export async function run(opts: LoginOtpOptions, deps: Deps): Promise<void> {
  const otp = await import('../otp/verify.js');
  return otp.run(opts, deps);
}
