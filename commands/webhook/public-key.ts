/**
 * Where the webhook verifying key comes from: --public-key (a PEM, hex, or @file), then
 * SERVICE_WEBHOOK_PUBKEY, then the profile's webhookPublicKey. The store is opened only when the
 * profile is actually needed, so a broken store does not stop a listener given its key on the flag.
 */
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import { parseWebhookPublicKey } from '../../src/crypto/webhook-signature.js';
import type { SelectedProfile } from '../../src/store/resolve.js';

export interface WebhookKey {
  key: KeyObject;
  /** Where it came from, for the ready line (never the key itself). */
  source: string;
}

/** Reads `@path` values from disk; anything else is the key text itself. */
function keyText(value: string, field: string): string {
  if (!value.startsWith('@')) return value;
  const path = value.slice(1);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read the webhook public key file ${path} (${code})`, { field });
  }
}

/** The parsed key, or undefined when none is configured anywhere. */
export async function resolveWebhookKey(
  flag: string | undefined,
  deps: Pick<Deps, 'env'>,
  profile: () => Promise<SelectedProfile | undefined>,
): Promise<WebhookKey | undefined> {
  if (flag !== undefined && flag.trim() !== '') {
    return { key: parseWebhookPublicKey(keyText(flag.trim(), '--public-key')), source: '--public-key' };
  }
  const fromEnv = deps.env.SERVICE_WEBHOOK_PUBKEY?.trim();
  if (fromEnv) return { key: parseWebhookPublicKey(keyText(fromEnv, 'SERVICE_WEBHOOK_PUBKEY')), source: 'SERVICE_WEBHOOK_PUBKEY' };
  const ctx = await profile();
  const stored = ctx?.stored?.webhookPublicKey;
  if (ctx && stored) return { key: parseWebhookPublicKey(stored), source: `profile "${ctx.name}"` };
  return undefined;
}

export const NO_KEY_HINT =
  'Pass --public-key <pem|hex|@file> (the service\'s webhook key; `svc emulator start` prints the local one), ' +
  'set SERVICE_WEBHOOK_PUBKEY, or store webhookPublicKey in the profile.';
