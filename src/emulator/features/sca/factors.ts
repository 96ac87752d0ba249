/**
 * `GET /sca/factors`, `POST /sca/factors` (start a TOTP or passkey enrollment), `POST
 * /sca/factors/confirm` and `DELETE /sca/factors/{credentialId}`, each for `?customerId=`. SMS_OTP is
 * every SCA customer's without enrollment. TOTP is confirmed with the secret handed out and the
 * sandbox code; a passkey with a real WebAuthn registration (auth/webauthn.ts) against the
 * start's challenge, one per customer (409 PASSKEY_ALREADY_ENROLLED).
 */
import { randomBytes } from 'node:crypto';
import { SANDBOX_SCA_CODE } from '../../../service/index.js';
import { HttpError, conflict, invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { RP_ID, verifyAttestation } from '../auth/webauthn.js';
import { ALLOWED_ORIGINS } from './challenge.js';
import { type ScaProfile, saveProfile, scaCustomerOf } from './profiles.js';

/** RFC 4648 base32 without padding, as authenticator apps take secrets. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** The description's ScaFactorView list: SMS_OTP always, then what is enrolled. */
function factorViews(profile: ScaProfile): Record<string, unknown>[] {
  const views: Record<string, unknown>[] = [{ factor: 'SMS_OTP' }];
  if (profile.totp) views.push({ factor: 'TOTP' });
  if (profile.passkey) views.push(passkeyView(profile));
  return views;
}

const passkeyView = (profile: ScaProfile) => ({
  factor: 'PASSKEY',
  credentialId: profile.passkey!.credentialId,
  ...(profile.passkey!.name ? { name: profile.passkey!.name } : {}),
});

const list: Route = {
  method: 'GET',
  path: '/sca/factors',
  permission: 'VIEW',
  handler(req, emu) {
    const { profile } = scaCustomerOf(emu, req);
    return { status: 200, body: { factors: factorViews(profile) } };
  },
};

const start: Route = {
  method: 'POST',
  path: '/sca/factors',
  permission: 'MANAGE',
  handler(req, emu) {
    // The type (TOTP or PASSKEY) is the description's, checked before this runs.
    const type = new Fields(req.json()).string('type');
    const { customer, profile } = scaCustomerOf(emu, req);
    if (type === 'TOTP') {
      const bytes = randomBytes(20);
      const secret = bytes.toString('hex');
      profile.totpPending.push(secret);
      saveProfile(emu, profile);
      const encoded = base32(bytes);
      const label = encodeURIComponent(`Service:${customer.email ?? customer.id}`);
      return {
        status: 200,
        body: {
          type,
          secret,
          secretBase32Encoded: encoded,
          totpUri: `otpauth://totp/${label}?secret=${encoded}&issuer=Service`,
        },
      };
    }
    if (profile.passkey)
      throw conflict(
        'PASSKEY_ALREADY_ENROLLED',
        `Customer ${customer.id} already has a passkey (${profile.passkey.credentialId}); delete it with DELETE /sca/factors/{credentialId} first`,
      );
    const challenge = randomBytes(32).toString('base64url');
    profile.passkeyEnrollment = challenge;
    saveProfile(emu, profile);
    return {
      status: 200,
      body: {
        type,
        options: {
          challenge,
          rp: { id: RP_ID, name: 'svc emulator' },
          user: {
            id: Buffer.from(customer.id).toString('base64url'),
            name: customer.email ?? customer.id,
            displayName: customer.fullName ?? customer.email ?? customer.id,
          },
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          attestation: 'none',
          timeout: 300_000,
        },
        allowedOrigins: ALLOWED_ORIGINS,
        relyingPartyId: RP_ID,
      },
    };
  },
};

/** A string of the opaque WebAuthn object, by our field name or the standard JSON form's. */
const pick = (o: Record<string, unknown>, flat: string, nested: string): string => {
  const response = o.response as Record<string, unknown> | undefined;
  const v = o[flat] ?? response?.[nested];
  return typeof v === 'string' ? v : '';
};

const confirm: Route = {
  method: 'POST',
  path: '/sca/factors/confirm',
  permission: 'MANAGE',
  handler(req, emu) {
    // The type's branch and its required fields (TOTP: secret and code; PASSKEY: origin and the
    // credential object) are the description's, checked before this runs.
    const f = new Fields(req.json());
    const type = f.string('type');
    const secret = type === 'TOTP' ? f.string('secret') : undefined;
    const code = type === 'TOTP' ? f.string('code') : undefined;
    const origin = type === 'PASSKEY' ? f.string('origin') : undefined;
    const { profile } = scaCustomerOf(emu, req);
    if (type === 'TOTP') {
      if (!profile.totpPending.includes(secret!))
        throw invalidInput([
          { field: 'secret', message: 'not a secret handed out by POST /sca/factors for this customer' },
        ]);
      if (code !== SANDBOX_SCA_CODE)
        throw invalidInput([
          { field: 'code', message: `wrong code (in the sandbox it is always ${SANDBOX_SCA_CODE})` },
        ]);
      profile.totp = { secret: secret! };
      profile.totpPending = [];
      saveProfile(emu, profile);
      const recoveryCodes = Array.from({ length: 8 }, () =>
        (randomBytes(6).toString('hex').toUpperCase().match(/.{4}/g) ?? []).join('-'),
      );
      return { status: 200, body: { type, recoveryCodes } };
    }
    if (!profile.passkeyEnrollment)
      throw invalidInput([
        { field: 'credential', message: 'no passkey enrollment was started: call POST /sca/factors first' },
      ]);
    if (!ALLOWED_ORIGINS.some((o) => origin === o || origin!.startsWith(`${o}:`)))
      throw invalidInput([
        {
          field: 'origin',
          message: `origin must be one of the start's allowedOrigins (${ALLOWED_ORIGINS.join(', ')}, any port)`,
        },
      ]);
    const raw = req.json().credential as Record<string, unknown>;
    let registered: ReturnType<typeof verifyAttestation>;
    try {
      registered = verifyAttestation(
        {
          credentialId: String(raw.credentialId ?? raw.id ?? ''),
          clientDataJson: pick(raw, 'clientDataJson', 'clientDataJSON'),
          attestationObject: pick(raw, 'attestationObject', 'attestationObject'),
        },
        profile.passkeyEnrollment,
      );
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      throw invalidInput([{ field: 'credential', message: error.reason ?? error.message }]);
    }
    const name = typeof raw.name === 'string' ? raw.name : undefined;
    profile.passkey = { ...registered, ...(name ? { name } : {}) };
    delete profile.passkeyEnrollment;
    saveProfile(emu, profile);
    return { status: 200, body: { type, factor: passkeyView(profile) } };
  },
};

const remove: Route = {
  method: 'DELETE',
  path: '/sca/factors/:credentialId',
  permission: 'MANAGE',
  handler(req, emu) {
    const { profile } = scaCustomerOf(emu, req);
    if (profile.passkey?.credentialId !== req.params.credentialId)
      throw notFound('SCA factor', req.params.credentialId!);
    delete profile.passkey;
    saveProfile(emu, profile);
    return { status: 204 };
  },
};

export const factorRoutes: Route[] = [list, start, confirm, remove];
