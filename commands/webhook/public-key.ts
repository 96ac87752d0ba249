/**
 * Where the webhook verifying key comes from: --public-key (a PEM, hex, or @file: commands/input.ts), then
 * SERVICE_WEBHOOK_PUBKEY, then the profile's webhookPublicKey. The store is opened only when the
 * profile is actually needed, so a broken store does not stop a listener given its key on the flag.
 */
import type { KeyObject } from 'node:crypto';
import type { Deps } from '../deps.js';
import { parseWebhookPublicKey } from '../../src/crypto/webhook-signature.js';
import type { SelectedProfile } from '../../src/store/resolve.js';
import { textOrAtFile } from '../input.js';

export interface WebhookKey {
  key: KeyObject;
  /** Where it came from, for the ready line (never the key itself). */
  source: string;
}

/** The parsed key, or undefined when none is configured anywhere. */
export async function resolveWebhookKey(
  flag: string | undefined,
  deps: Pick<Deps, 'env' | 'io'>,
  profile: () => Promise<SelectedProfile | undefined>,
): Promise<WebhookKey | undefined> {
  if (flag !== undefined && flag.trim() !== '') {
    return {
      key: parseWebhookPublicKey(await textOrAtFile(flag.trim(), '--public-key', deps)),
      source: '--public-key',
    };
  }
  const fromEnv = deps.env.SERVICE_WEBHOOK_PUBKEY?.trim();
  if (fromEnv)
    return {
      key: parseWebhookPublicKey(await textOrAtFile(fromEnv, 'SERVICE_WEBHOOK_PUBKEY', deps)),
      source: 'SERVICE_WEBHOOK_PUBKEY',
    };
  const ctx = await profile();
  const stored = ctx?.stored?.webhookPublicKey;
  if (ctx && stored) return { key: parseWebhookPublicKey(stored), source: `profile "${ctx.name}"` };
  return undefined;
}

export const NO_KEY_HINT =
  "Pass --public-key <pem|hex|@file> (the service's webhook key; `svc emulator start` prints the local one), " +
  'set SERVICE_WEBHOOK_PUBKEY, or keep it in the profile: svc config set webhook-public-key <hex|@file> (a PEM from its file).';
