/**
 * `svc keys encrypt-otp --bundle <json> --code <otp> --signer <hex>`: checks the target bundle's
 * signer and signature, then HPKE-encrypts the code with a fresh TEK. Prints JSON always: the
 * three values are meant to be piped into the verify call and the signed retry.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { encryptOtpBundle, verifyOtpTargetBundle } from '../../src/crypto/bundles.js';
import { decompressPublicKey, generateKeyPair } from '../../src/crypto/keys.js';

export type EncryptOtpOptions = OptionsOf<typeof verbs.encryptOtp>;

export async function run(opts: EncryptOtpOptions, deps: Deps): Promise<void> {
  // A bad --signer is a usage error (exit 2); a bundle that fails the checks is exit 1.
  if (!opts.code) throw new UsageError('the OTP code is empty: pass --code <otp>', { input: '--code' });
  const signer = decompressPublicKey(opts.signer.trim(), '--signer');
  const target = verifyOtpTargetBundle(opts.bundle, signer);
  const tek = generateKeyPair();
  const encryptedOtpBundle = await encryptOtpBundle(target.targetPublic, opts.code, tek.publicKey);
  deps.ui.json({ encryptedOtpBundle, tekPrivateKey: tek.privateKey, tekPublicKey: tek.publicKey });
}
