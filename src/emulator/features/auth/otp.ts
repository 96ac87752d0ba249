/**
 * EMAIL_OTP / SMS_OTP challenge and verify, with the real crypto:
 * the challenge hands out a fresh otpEncryptionTargetBundle signed by the emulator's signer key;
 * verify opens encryptedOtpBundle with that target's private key (each target opens one bundle,
 * then it is gone), accepts only the sandbox code 000000, and binds the TEK public_key inside it
 * as the only key that may sign the retry. The signed retry creates a session keyed by the TEK.
 */
import { generateKeyPair, compressPublicKey } from '../../../crypto/keys.js';
import { createOtpTargetBundle, decryptOtpBundle } from '../../../crypto/bundles.js';
import { INVALID_OTP_REASON, SANDBOX_OTP_CODE } from '../../../service/auth-magic.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { unauthorized } from '../../kernel/errors.js';
import type { Reply, Req } from '../../kernel/router.js';
import { memoryTable } from '../../kernel/tables.js';
import { signedFlow } from '../../signed-retry/index.js';
import { accounts, organizationOf } from '../accounts/accounts.js';
import { createSession, renderSession } from '../sessions/sessions.js';
import { renderAuthMethod, type AuthMethodRec } from './credentials.js';

const MAX_OPEN_TARGETS = 10;

export interface OtpTargetRec {
  privateKey: string;
  expiresAtMs: number;
}

/** Unused OTP encryption targets per credential id (each bundle is good for one issuance). */
export const otpTargets = memoryTable<OtpTargetRec[]>('otpTargets');

/**
 * Opens the bundle with one of the credential's unused targets and consumes that target. The
 * HPKE open is asynchronous, so the target is claimed against the list as it is after the await:
 * of concurrent calls with one bundle only the first gets through, and targets issued meanwhile
 * are kept.
 */
async function openWithTarget(
  emu: EmulatorContext,
  credentialId: string,
  bundle: string,
): Promise<{ otp_code: string; public_key: string }> {
  const now = emu.now();
  const stale = () =>
    unauthorized(
      'encryptedOtpBundle does not open with any unused, unexpired otpEncryptionTargetBundle of this credential (stale or reused bundle); request a new challenge',
    );
  for (const target of (emu.table(otpTargets).get(credentialId) ?? []).filter((t) => t.expiresAtMs > now)) {
    let opened: { otp_code: string; public_key: string };
    try {
      opened = await decryptOtpBundle(bundle, target.privateKey);
    } catch {
      continue; // not this target
    }
    const current = emu.table(otpTargets).get(credentialId) ?? [];
    if (!current.includes(target)) throw stale(); // a concurrent call with the same bundle won
    emu.table(otpTargets).set(
      credentialId,
      current.filter((t) => t !== target),
    );
    return opened;
  }
  throw stale();
}

/** A fresh otpEncryptionTargetBundle signed by the emulator's signer key; the target is kept to open one bundle. */
export function otpChallenge(emu: EmulatorContext, method: AuthMethodRec): Reply {
  const target = generateKeyPair({ uncompressed: true });
  const account = emu.table(accounts).get(method.accountId)!;
  const otpEncryptionTargetBundle = createOtpTargetBundle(emu.core.otpSignerPrivateKey, target.publicKey, {
    organizationId: organizationOf(account),
  });
  const open = (emu.table(otpTargets).get(method.id) ?? []).slice(-(MAX_OPEN_TARGETS - 1));
  open.push({ privateKey: target.privateKey, expiresAtMs: emu.now() + emu.opts.challengeTtlMs });
  emu.table(otpTargets).set(method.id, open);
  return { status: 200, body: { ...renderAuthMethod(method), otpEncryptionTargetBundle } };
}

/** The signed verify: the bundle must open with an unused target and hold the sandbox code; its TEK signs the retry. */
export function otpVerify(emu: EmulatorContext, req: Req, method: AuthMethodRec, bundle: string): Promise<Reply> {
  return signedFlow(emu, req, {
    kind: 'verify',
    resourceId: method.id,
    accountId: method.accountId,
    binding: bundle,
    bindingField: 'encryptedOtpBundle',
    async begin() {
      const opened = await openWithTarget(emu, method.id, bundle);
      if (opened.otp_code !== SANDBOX_OTP_CODE) throw unauthorized(INVALID_OTP_REASON);
      let tek: string;
      try {
        tek = compressPublicKey(opened.public_key);
      } catch {
        throw unauthorized('The public_key inside encryptedOtpBundle is not a P-256 public key');
      }
      return {
        activityType: 'ACTIVITY_TYPE_OTP_LOGIN',
        parameters: { publicKey: tek },
        requiredSigner: tek,
        lead: { type: method.type },
      };
    },
    checkTarget: () => undefined,
    async settle(pending) {
      const session = createSession(emu, { method, publicKey: pending.requiredSigner! });
      return { status: 200, body: renderSession(emu, session) };
    },
  });
}
