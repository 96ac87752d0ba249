/**
 * SCA login (`POST /sca/login/start`, `/sca/login/complete`) and `POST /sca/record-event`, for
 * `?customerId=`. A login is started for an enrolled factor (SMS_OTP always is) and completed with
 * its proof: the sandbox code, or a passkey assertion over the start's challenge. A completed login
 * opens the customer's SCA session (SCA_TIMINGS.sessionMs). A wrong proof counts as a failed login
 * on the description's lockout ladder; while locked or suspended, complete is 423 ACCOUNT_LOCKED.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SCA_TIMINGS, type ScaFactor } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, invalidInput } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { RP_ID } from '../auth/webauthn.js';
import {
  ALLOWED_ORIGINS,
  assertionOptions,
  checkNotLocked,
  checkProof,
  readProof,
  recordFailedLogin,
} from './challenge.js';
import { type ScaProfile, saveProfile, scaCustomerOf } from './profiles.js';

export const isEnrolled = (profile: ScaProfile, factor: string): boolean =>
  factor === 'SMS_OTP' || (factor === 'TOTP' && !!profile.totp) || (factor === 'PASSKEY' && !!profile.passkey);

const start: Route = {
  method: 'POST',
  path: '/sca/login/start',
  permission: 'MANAGE',
  handler(req, emu) {
    // The factor (one of the description's) is checked before this runs.
    const factor = new Fields(req.json()).string('factor') as ScaFactor;
    const { customer, profile } = scaCustomerOf(emu, req);
    if (!isEnrolled(profile, factor))
      throw invalidInput([
        { field: 'factor', message: `${factor} is not enrolled for this customer (POST /sca/factors)` },
      ]);
    // The code goes to the customer's verified phone: none is verified yet, so none can be sent.
    if (factor === 'SMS_OTP' && customer.contactVerification?.phone !== 'VERIFIED')
      throw invalidInput([
        {
          field: 'factor',
          message: `SMS_OTP needs the customer's phone verified first (POST /customers/${customer.id}/verify-phone, then its confirm)`,
        },
      ]);
    const expiresAtMs = emu.now() + SCA_TIMINGS.challengeMs;
    if (factor === 'SMS_OTP') {
      const challengeId = `ScaChallenge:${randomUUID()}`;
      profile.login = { factor, challengeId, expiresAtMs };
      saveProfile(emu, profile);
      return { status: 200, body: { factor, challengeId, expiresAt: emu.iso(expiresAtMs) } };
    }
    if (factor === 'TOTP') {
      profile.login = { factor, expiresAtMs };
      saveProfile(emu, profile);
      return { status: 200, body: { factor } };
    }
    const webauthnChallenge = randomBytes(32).toString('base64url');
    profile.login = { factor, webauthnChallenge, expiresAtMs };
    saveProfile(emu, profile);
    return {
      status: 200,
      body: {
        factor,
        passkeyOptions: assertionOptions(profile, webauthnChallenge),
        allowedOrigins: ALLOWED_ORIGINS,
        relyingPartyId: RP_ID,
      },
    };
  },
};

const complete: Route = {
  method: 'POST',
  path: '/sca/login/complete',
  permission: 'MANAGE',
  handler(req, emu) {
    // factor and endUserIpAddress, and a code or an assertion with its origin, are the description's,
    // checked before this runs.
    const f = new Fields(req.json());
    const factor = f.string('factor') as ScaFactor;
    const challengeId = f.raw('challengeId') === null ? undefined : f.string('challengeId');
    const proof = readProof(f);
    f.done();
    const { profile } = scaCustomerOf(emu, req);
    checkNotLocked(emu, profile);
    const login = profile.login;
    if (!login || login.factor !== factor)
      throw invalidInput([
        { field: 'factor', message: `no ${factor} login was started: call POST /sca/login/start first` },
      ]);
    if (login.challengeId && challengeId !== login.challengeId)
      throw invalidInput([
        { field: 'challengeId', message: 'the challengeId returned by POST /sca/login/start is required' },
      ]);
    try {
      checkProof(emu, profile, proof, {
        factors: [factor],
        ...(login.webauthnChallenge ? { webauthnChallenge: login.webauthnChallenge } : {}),
        expiresAtMs: login.expiresAtMs,
      });
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) {
        recordFailedLogin(emu, profile);
        saveProfile(emu, profile);
      }
      throw error;
    }
    delete profile.login;
    profile.failedAttempts = 0;
    delete profile.lockedUntilMs;
    profile.sessionExpiresAtMs = emu.now() + SCA_TIMINGS.sessionMs;
    saveProfile(emu, profile);
    return { status: 200, body: { status: 'SUCCESS', sessionExpiresAt: emu.iso(profile.sessionExpiresAtMs) } };
  },
};

/** The description's RecordSecurityEventResponse for the customer's state now. */
function securityState(emu: EmulatorContext, profile: ScaProfile, eventType: string): Record<string, unknown> {
  const locked = !profile.suspended && profile.lockedUntilMs !== undefined && profile.lockedUntilMs > emu.now();
  return {
    eventType,
    suspended: profile.suspended,
    lockedUntil: locked ? emu.iso(profile.lockedUntilMs) : null,
    failedAttempts: profile.failedAttempts,
  };
}

const recordEvent: Route = {
  method: 'POST',
  path: '/sca/record-event',
  permission: 'MANAGE',
  handler(req, emu) {
    // The event type (one of the description's) is checked before this runs.
    const eventType = new Fields(req.json()).string('eventType')!;
    const { profile } = scaCustomerOf(emu, req);
    if (eventType === 'RESET_PASSWORD_COMPLETED') {
      // The description: revokes every SCA session and clears the failed-login counter.
      profile.failedAttempts = 0;
      profile.suspended = false;
      delete profile.lockedUntilMs;
      delete profile.sessionExpiresAtMs;
      delete profile.login;
    } else {
      recordFailedLogin(emu, profile);
    }
    saveProfile(emu, profile);
    return { status: 200, body: securityState(emu, profile, eventType) };
  },
};

export const loginRoutes: Route[] = [start, complete, recordEvent];
