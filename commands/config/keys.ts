/**
 * The settable profile keys of `svc config`: their names on the command line, the Profile field each
 * writes, whether it is a secret (masked on output, read from stdin/prompt with "-"), and the check
 * each value must pass before it is stored, so a typo fails at `set` rather than at the next request.
 */
import { UsageError } from '../../src/errors.js';
import { normalizeBaseUrl } from '../../src/http/base-url.js';
import type { Profile } from '../../src/store/index.js';
import type { ConfigKeyName } from './key-names.js';
import type { PinScope } from '../../src/auth/signer-pins.js';

/** The Profile fields that hold one string (otpSigners is a map, handled by values.ts). */
type StringField = { [K in keyof Profile]-?: Profile[K] extends string | undefined ? K : never }[keyof Profile];

export interface ConfigKey {
  /** Typed against key-names.cts, so help text and checks cannot drift apart by a misspelling. */
  name: ConfigKeyName;
  /** The profile field; for a per-URL pin, the profile-wide one used when no base URL is known (if any). */
  field?: StringField;
  /** Kept per base URL (the OTP signer pins, every token's or sandbox tokens'): see values.ts. */
  perBaseUrl?: PinScope;
  secret: boolean;
  description: string;
  /**
   * Resolves to the value to store (normalised) or rejects with a UsageError naming `field`.
   * Async so that the key checks can load their crypto only when a key is actually being set.
   */
  check(value: string, field: string): string | Promise<string>;
}

/** No whitespace anywhere and, for the token id, no colon: Basic auth splits id and secret at the first ':'. */
function token(what: string, forbidColon: boolean) {
  return (value: string, field: string): string => {
    const v = value.trim();
    if (v === '' || /\s/.test(v) || (forbidColon && v.includes(':'))) {
      throw new UsageError(`${field} must be a non-empty ${what} without spaces${forbidColon ? ' or colons' : ''}.`, {
        input: field,
      });
    }
    return v;
  };
}

const OTP_SIGNER_HINT =
  "Use the signer key the service publishes (enclaveQuorumPublic); `svc emulator start` prints the emulator's as otpSignerPublicKey. Without a pin, `svc otp verify` pins the first key it sees.";

/** Stored uncompressed because that is the form the target bundle carries in enclaveQuorumPublic. */
async function signerKey(v: string, field: string): Promise<string> {
  const { decompressPublicKey } = await import('../../src/crypto/keys.js');
  try {
    return decompressPublicKey(v.trim(), field).toLowerCase();
  } catch (error) {
    // Not the key check's reason, whose hint says "generate one": a pin is the service's key, never one of ours.
    if (error instanceof UsageError) throw new UsageError(error.message, { input: field, hint: OTP_SIGNER_HINT });
    throw error;
  }
}

export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    name: 'base-url',
    field: 'baseUrl',
    secret: false,
    description: 'service base URL; /2025-10-13 is appended when no version segment is given',
    check: (v, field) => normalizeBaseUrl(v, field),
  },
  {
    name: 'api-token-id',
    field: 'apiTokenId',
    secret: false,
    description: 'API token id (HTTP Basic user)',
    check: token('token id', true),
  },
  {
    name: 'api-client-secret',
    field: 'apiClientSecret',
    secret: true,
    description: 'API client secret (HTTP Basic password)',
    check: token('client secret', false),
  },
  {
    name: 'access-token',
    field: 'accessToken',
    secret: true,
    description: 'agent bearer token (used when no token id and secret are set)',
    check: token('access token', false),
  },
  {
    name: 'otp-signer',
    field: 'otpSignerPublicKey',
    perBaseUrl: 'any',
    secret: false,
    description:
      "pinned OTP bundle signer public key (P-256 SEC1 hex) for the profile's base URL, every token's; stored uncompressed",
    check: signerKey,
  },
  {
    name: 'sandbox-otp-signer',
    perBaseUrl: 'sandbox',
    secret: false,
    description:
      "the OTP bundle signer pinned for sandbox tokens at the profile's base URL (trusted on first use when unset)",
    check: signerKey,
  },
  {
    name: 'webhook-public-key',
    field: 'webhookPublicKey',
    secret: false,
    description: 'webhook signing public key (SPKI PEM or SEC1/DER hex)',
    check: async (v, field) => {
      const text = v.trim();
      const { parseWebhookPublicKey } = await import('../../src/crypto/webhook-signature.js');
      parseWebhookPublicKey(text, field);
      return text;
    },
  },
];

export function configKey(name: unknown): ConfigKey {
  const key = CONFIG_KEYS.find((k) => k.name === name);
  if (!key) {
    throw new UsageError(
      `Unknown config key "${String(name ?? '')}": use one of ${CONFIG_KEYS.map((k) => k.name).join(', ')}.`,
      { input: 'key' },
    );
  }
  return key;
}

/**
 * Enough of a secret to tell two apart, never enough to use: the last 4 characters of a long secret,
 * nothing of a short one (4 of 12 would be a third of it).
 */
function maskSecret(value: string): string {
  return value.length >= 16 ? `****${value.slice(-4)}` : '****';
}

export function displayValue(key: ConfigKey, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return key.secret ? maskSecret(value) : value;
}
