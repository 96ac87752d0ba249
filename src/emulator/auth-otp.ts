/**
 * Credential challenge and verify (PASSKEY credentials are handed to auth-passkey.ts).
 * EMAIL_OTP / SMS_OTP run with the real crypto:
 * the challenge hands out a fresh otpEncryptionTargetBundle signed by the emulator's signer key;
 * verify opens encryptedOtpBundle with that target's private key (each target opens one bundle,
 * then it is gone), accepts only the sandbox code 000000, and binds the TEK public_key inside it
 * as the only key that may sign the retry. The signed retry creates a session keyed by the TEK.
 */
import { generateKeyPair, compressPublicKey } from '../crypto/keys.js';
import { createOtpTargetBundle, decryptOtpBundle } from '../crypto/bundles.js';
import type { EmulatorContext } from './context.js';
import { badRequest, notFound, unauthorized } from './errors.js';
import type { Req, Route } from './router.js';
import { signedFlow } from './signed-retry.js';
import { createSession, renderAuthMethod, renderSession } from './sessions.js';
import type { AuthMethodRec } from './state.js';
import { CLIENT_PUBLIC_KEY_RULES, Fields } from './validation.js';
import { passkeyChallenge, passkeyVerify } from './auth-passkey.js';

const SANDBOX_OTP_CODE = '000000';
const MAX_OPEN_TARGETS = 10;
const AUTH_METHOD_TYPES = ['OAUTH', 'EMAIL_OTP', 'SMS_OTP', 'PASSKEY'] as const;

function getCredential(emu: EmulatorContext, id: string): AuthMethodRec {
  const method = emu.state.authMethods.get(id);
  if (!method) throw notFound('AuthMethod', id);
  return method;
}

function isOtp(method: AuthMethodRec): boolean {
  return method.type === 'EMAIL_OTP' || method.type === 'SMS_OTP';
}

/** The body, which is optional on the challenge; an empty one is {}. */
function optionalJson(req: Req): Record<string, unknown> {
  return req.raw.length === 0 ? {} : req.json();
}

const OTP_BUNDLE_SHAPE = 'a JSON string {"encappedPublic":"04…(130 hex)","ciphertext":"<hex>"}';
function checkOtpBundleShape(value: string): string | undefined {
  try {
    const o = JSON.parse(value) as Record<string, unknown>;
    if (typeof o?.encappedPublic === 'string' && /^04[0-9a-fA-F]{128}$/.test(o.encappedPublic) && typeof o.ciphertext === 'string' && /^(?:[0-9a-fA-F]{2})+$/.test(o.ciphertext)) {
      return undefined;
    }
  } catch {
    // fall through
  }
  return `encryptedOtpBundle must be ${OTP_BUNDLE_SHAPE}`;
}

/**
 * Opens the bundle with one of the credential's unused targets and consumes that target. The
 * HPKE open is asynchronous, so the target is claimed against the list as it is after the await:
 * of concurrent calls with one bundle only the first gets through, and targets issued meanwhile
 * are kept.
 */
async function openWithTarget(emu: EmulatorContext, credentialId: string, bundle: string): Promise<{ otp_code: string; public_key: string }> {
  const now = emu.now();
  const stale = () => unauthorized('encryptedOtpBundle does not open with any unused, unexpired otpEncryptionTargetBundle of this credential (stale or reused bundle); request a new challenge');
  for (const target of (emu.otpTargets.get(credentialId) ?? []).filter((t) => t.expiresAtMs > now)) {
    let opened: { otp_code: string; public_key: string };
    try {
      opened = await decryptOtpBundle(bundle, target.privateKey);
    } catch {
      continue; // not this target
    }
    const current = emu.otpTargets.get(credentialId) ?? [];
    if (!current.includes(target)) throw stale(); // a concurrent call with the same bundle won
    emu.otpTargets.set(credentialId, current.filter((t) => t !== target));
    return opened;
  }
  throw stale();
}

export const otpRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth/credentials/:id/challenge',
    handler(req, emu) {
      const method = getCredential(emu, req.params.id!);
      const fields = new Fields(optionalJson(req));
      const clientPublicKey = fields.string('clientPublicKey', CLIENT_PUBLIC_KEY_RULES);
      fields.done();
      if (method.type === 'PASSKEY') return passkeyChallenge(emu, method, clientPublicKey);
      if (!isOtp(method)) throw badRequest('INVALID_INPUT', `The emulator issues challenges for EMAIL_OTP, SMS_OTP and PASSKEY credentials; ${method.id} is ${method.type}`);
      const target = generateKeyPair({ uncompressed: true });
      const account = emu.state.accounts.get(method.accountId)!;
      const otpEncryptionTargetBundle = createOtpTargetBundle(emu.state.otpSignerPrivateKey, target.publicKey, {
        organizationId: account.organizationId,
      });
      const open = (emu.otpTargets.get(method.id) ?? []).slice(-(MAX_OPEN_TARGETS - 1));
      open.push({ privateKey: target.privateKey, expiresAtMs: emu.now() + emu.opts.challengeTtlMs });
      emu.otpTargets.set(method.id, open);
      return { status: 200, body: { ...renderAuthMethod(method), otpEncryptionTargetBundle } };
    },
  },
  {
    method: 'POST',
    path: '/auth/credentials/:id/verify',
    async handler(req, emu) {
      const method = getCredential(emu, req.params.id!);
      const fields = new Fields(req.json());
      const type = fields.string('type', { required: true, enum: AUTH_METHOD_TYPES });
      if (type !== undefined && type !== method.type) fields.add('type', `type must be ${method.type} for credential ${method.id}`, { enum: [method.type] });
      if (method.type === 'PASSKEY') return passkeyVerify(emu, req, method, fields);
      const bundle = fields.string('encryptedOtpBundle', { required: isOtp(method), check: checkOtpBundleShape });
      fields.done();
      if (!isOtp(method)) throw badRequest('INVALID_INPUT', `The emulator verifies EMAIL_OTP, SMS_OTP and PASSKEY credentials; ${method.id} is ${method.type}`);

      return signedFlow(emu, req, {
        kind: 'verify',
        resourceId: method.id,
        accountId: method.accountId,
        binding: bundle!,
        bindingField: 'encryptedOtpBundle',
        async begin() {
          const opened = await openWithTarget(emu, method.id, bundle!);
          if (opened.otp_code !== SANDBOX_OTP_CODE) throw unauthorized('Invalid OTP code');
          let tek: string;
          try {
            tek = compressPublicKey(opened.public_key);
          } catch {
            throw unauthorized('The public_key inside encryptedOtpBundle is not a P-256 public key');
          }
          return { activityType: 'ACTIVITY_TYPE_OTP_LOGIN', parameters: { publicKey: tek }, requiredSigner: tek, lead: { type: method.type } };
        },
        checkTarget: () => undefined,
        async settle(pending) {
          const session = createSession(emu, { method, publicKey: pending.requiredSigner! });
          return { status: 200, body: renderSession(emu, session) };
        },
      });
    },
  },
];
