/**
 * 2FA reset (`POST /sca/factors/reset`, `GET /sca/factors/reset/{resetId}`, `POST …/complete`), for
 * `?customerId=`. The liveness check has no page in the emulator: it passes on its own
 * SCA_TIMINGS.resetLivenessMs of emulator time after the start (move the clock to skip the wait),
 * and the window closes after resetWindowMs. Completing clears the factor (SMS_OTP: sets the new
 * number on the customer); a TOTP or passkey reset then reports enrollmentStatus PENDING until the
 * factor is enrolled again. At most 5 starts a day per customer (429 RATE_LIMITED with Retry-After).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SCA_TIMINGS } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Route } from '../../kernel/router.js';
import { durableTable } from '../../kernel/tables.js';
import { customers } from '../customers/customers.js';
import { PHONE } from '../customers/fields.js';
import { isEnrolled } from './login.js';
import { type ScaProfile, saveProfile, scaCustomerOf } from './profiles.js';

export interface ResetRec {
  id: string;
  customerId: string;
  factor: string;
  startedAtMs: number;
  expiresAtMs: number;
  completedAtMs?: number;
}

export const scaResets = durableTable<ResetRec>('scaResets', {
  id: 'string',
  customerId: 'string',
  factor: 'string',
  startedAtMs: 'number',
  expiresAtMs: 'number',
  completedAtMs: 'number?',
});
const DAY_MS = 24 * 60 * 60_000;

function statusOf(emu: EmulatorContext, r: ResetRec): string {
  if (r.completedAtMs !== undefined) return 'COMPLETED';
  if (r.expiresAtMs <= emu.now()) return 'EXPIRED';
  return emu.now() >= r.startedAtMs + SCA_TIMINGS.resetLivenessMs ? 'LIVENESS_PASSED' : 'INITIATED';
}

function render(emu: EmulatorContext, r: ResetRec, profile: ScaProfile): Record<string, unknown> {
  const reEnrolled = r.factor === 'TOTP' ? !!profile.totp : !!profile.passkey;
  return {
    status: statusOf(emu, r),
    factor: r.factor,
    enrollmentStatus:
      r.completedAtMs === undefined || r.factor === 'SMS_OTP' ? null : reEnrolled ? 'COMPLETED' : 'PENDING',
    expiresAt: emu.iso(r.expiresAtMs),
    completedAt: r.completedAtMs === undefined ? null : emu.iso(r.completedAtMs),
  };
}

function resetOf(emu: EmulatorContext, customerId: string, id: string): ResetRec {
  const reset = emu.table(scaResets).get(id);
  if (!reset || reset.customerId !== customerId) throw notFound('2FA reset', id);
  return reset;
}

const start: Route = {
  method: 'POST',
  path: '/sca/factors/reset',
  permission: 'MANAGE',
  handler(req, emu) {
    // The factor (one of the description's) is checked before this runs.
    const factor = new Fields(req.json()).string('factor')!;
    const { customer, profile } = scaCustomerOf(emu, req);
    if (!isEnrolled(profile, factor))
      throw invalidInput([
        { field: 'factor', message: `${factor} is not enrolled for this customer: nothing to reset` },
      ]);
    const now = emu.now();
    profile.resetStartsMs = profile.resetStartsMs.filter((t) => t > now - DAY_MS);
    if (profile.resetStartsMs.length >= SCA_TIMINGS.resetStartsPerDay) {
      const retryAfterS = Math.ceil((profile.resetStartsMs[0]! + DAY_MS - now) / 1000);
      throw new HttpError(429, 'RATE_LIMITED', `At most ${SCA_TIMINGS.resetStartsPerDay} resets a day per customer`, {
        headers: { 'Retry-After': String(retryAfterS) },
      });
    }
    profile.resetStartsMs.push(now);
    saveProfile(emu, profile);
    const id = `ScaReset:${randomUUID()}`;
    const reset = emu.table(scaResets).set(id, {
      id,
      customerId: customer.id,
      factor,
      startedAtMs: now,
      expiresAtMs: now + SCA_TIMINGS.resetWindowMs,
    });
    return {
      status: 201,
      body: {
        resetId: reset.id,
        livenessAccessToken: randomBytes(24).toString('base64url'),
        expiresAt: emu.iso(reset.expiresAtMs),
      },
    };
  },
};

const status: Route = {
  method: 'GET',
  path: '/sca/factors/reset/:resetId',
  permission: 'VIEW',
  handler(req, emu) {
    const { customer, profile } = scaCustomerOf(emu, req);
    return { status: 200, body: render(emu, resetOf(emu, customer.id, req.params.resetId!), profile) };
  },
};

const complete: Route = {
  method: 'POST',
  path: '/sca/factors/reset/:resetId/complete',
  permission: 'MANAGE',
  handler(req, emu) {
    // A mobile's countryCode and number are required by the description, checked before this runs;
    // what they must make together (the customer's E.164 phone number) is checked below.
    const mobile = new Fields(req.raw.length === 0 ? {} : req.json()).object('mobile');
    const countryCode = mobile?.string('countryCode');
    const number = mobile?.string('number');
    const { customer, profile } = scaCustomerOf(emu, req);
    const reset = resetOf(emu, customer.id, req.params.resetId!);
    const now = statusOf(emu, reset);
    if (now !== 'LIVENESS_PASSED')
      throw invalidInput(
        [{ field: 'resetId', message: `the reset is ${now}, not LIVENESS_PASSED` }],
        `Reset not ready: ${now}`,
      );
    if (reset.factor === 'SMS_OTP') {
      const phoneNumber = countryCode && number ? `${countryCode}${number}` : undefined;
      if (!phoneNumber || !PHONE.test(phoneNumber))
        throw invalidInput([
          { field: 'mobile', message: 'an SMS_OTP reset needs the new mobile {countryCode, number} (E.164 together)' },
        ]);
      customer.phoneNumber = phoneNumber;
      customer.updatedAt = emu.iso();
      emu.table(customers).set(customer.id, customer);
    } else if (reset.factor === 'TOTP') delete profile.totp;
    else delete profile.passkey;
    saveProfile(emu, profile);
    reset.completedAtMs = emu.now();
    emu.table(scaResets).set(reset.id, reset);
    return { status: 204 };
  },
};

export const resetRoutes: Route[] = [start, status, complete];
