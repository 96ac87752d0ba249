/**
 * Key names for help text. Kept apart from keys.ts so `svc config --help` does not load the crypto
 * and http modules that the checks need; a test keeps the two lists equal.
 */
export const CONFIG_KEY_NAMES = [
  'base-url',
  'api-token-id',
  'api-client-secret',
  'access-token',
  'otp-signer',
  'sandbox-otp-signer',
  'webhook-public-key',
] as const;
export type ConfigKeyName = (typeof CONFIG_KEY_NAMES)[number];
