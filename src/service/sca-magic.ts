/**
 * Strong customer authentication and contact verification: the description's sandbox values and
 * rules, as data. Where the description is silent (which regions need SCA, how long a code lives)
 * the values are the emulator's choices, named here once.
 */

/** The description: "In sandbox, the code is always 123456" (SCA challenges, TOTP, SMS logins, email and phone). */
export const SANDBOX_SCA_CODE = '123456';

export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export type ScaFactor = (typeof SCA_FACTORS)[number];

/**
 * Customers whose `region` is one of these need SCA and contact verification. The description says
 * "a region where SCA is required (e.g. EU)"; the emulator's choice is the European Economic Area,
 * by the customer's `region` only (its regulatory jurisdiction, in the description's words).
 */
export const SCA_REGIONS: readonly string[] = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
];

export const SECURITY_EVENT_TYPES = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;

/**
 * The description's lockout ladder for FAILED_LOGIN_ATTEMPT: after 5 failures 15 minutes, 6 → 30
 * minutes, 7 → 1 hour, 8 → 24 hours, 9 or more → suspended (no automatic expiry).
 */
export const LOCKOUT_LADDER: ReadonlyArray<{ attempts: number; lockMs: number }> = [
  { attempts: 5, lockMs: 15 * 60_000 },
  { attempts: 6, lockMs: 30 * 60_000 },
  { attempts: 7, lockMs: 60 * 60_000 },
  { attempts: 8, lockMs: 24 * 60 * 60_000 },
];
export const SUSPENDED_AFTER_ATTEMPTS = 9;

/** Emulator choices where the description gives no durations. */
export const SCA_TIMINGS = {
  /** A per-operation challenge (and an SMS login code) can be authorized for this long. */
  challengeMs: 5 * 60_000,
  /** An SCA login session lasts this long. */
  sessionMs: 15 * 60_000,
  /** A contact-verification code is good for this long after it was sent. */
  contactCodeMs: 10 * 60_000,
  /** A 2FA reset's liveness check passes this long after the reset starts (emulator time)… */
  resetLivenessMs: 60_000,
  /** …and the reset window closes after this. */
  resetWindowMs: 24 * 60 * 60_000,
  /** The description: at most 5 reset starts per 24 hours per customer. */
  resetStartsPerDay: 5,
} as const;
