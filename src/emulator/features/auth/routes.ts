/**
 * Credential challenge and verify, dispatched by the credential's type: EMAIL_OTP and SMS_OTP to
 * otp.ts, PASSKEY to passkey.ts, OAUTH verify to oauth.ts (OAuth has no challenge step).
 */
import { badRequest } from '../../kernel/errors.js';
import { CLIENT_PUBLIC_KEY_RULES, Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { getCredential, isOtp } from './credentials.js';
import { oauthVerify } from './oauth.js';
import { otpChallenge, otpVerify } from './otp.js';
import { passkeyChallenge, passkeyVerify } from './passkey.js';

/** The body, which is optional on the challenge; an empty one is {}. */
function optionalJson(req: Req): Record<string, unknown> {
  return req.raw.length === 0 ? {} : req.json();
}

const OTP_BUNDLE_SHAPE = 'a JSON string {"encappedPublic":"04…(130 hex)","ciphertext":"<hex>"}';
function checkOtpBundleShape(value: string): string | undefined {
  try {
    const o = JSON.parse(value) as Record<string, unknown>;
    if (
      typeof o?.encappedPublic === 'string' &&
      /^04[0-9a-fA-F]{128}$/.test(o.encappedPublic) &&
      typeof o.ciphertext === 'string' &&
      /^(?:[0-9a-fA-F]{2})+$/.test(o.ciphertext)
    ) {
      return undefined;
    }
  } catch {
    // fall through
  }
  return `encryptedOtpBundle must be ${OTP_BUNDLE_SHAPE}`;
}

export const credentialRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth/credentials/:id/challenge',
    permission: 'MANAGE',
    handler(req, emu) {
      const method = getCredential(emu, req.params.id!);
      const fields = new Fields(optionalJson(req));
      const clientPublicKey = fields.string('clientPublicKey', CLIENT_PUBLIC_KEY_RULES);
      fields.done();
      if (method.type === 'PASSKEY') return passkeyChallenge(emu, method, clientPublicKey);
      if (!isOtp(method))
        throw badRequest(
          'INVALID_INPUT',
          `OAUTH credentials have no challenge step: verify with a fresh oidcToken whose nonce binds clientPublicKey`,
        );
      return otpChallenge(emu, method);
    },
  },
  {
    method: 'POST',
    path: '/auth/credentials/:id/verify',
    permission: 'MANAGE',
    async handler(req, emu) {
      const method = getCredential(emu, req.params.id!);
      // type is one of the description's and each type's fields are present, checked before this
      // runs; the type must be the credential's own, and a bundle the spec's JSON shape.
      const fields = new Fields(req.json());
      const type = fields.string('type');
      if (type !== method.type)
        fields.add('type', `type must be ${method.type} for credential ${method.id}`, { enum: [method.type] });
      if (method.type === 'PASSKEY') return passkeyVerify(emu, req, method, fields);
      if (method.type === 'OAUTH') return oauthVerify(emu, method, fields);
      const bundle = fields.string('encryptedOtpBundle', {
        maxLength: 8192,
        check: checkOtpBundleShape,
      });
      fields.done();
      return otpVerify(emu, req, method, bundle!);
    },
  },
];
