/**
 * While `webhook listen` runs against the local emulator, checks every few seconds that the emulator
 * still delivers here, with the key the listener verifies with, and says at once (and once per
 * change) when that stopped being true and what to do:
 * - the emulator is down: deliveries wait until it is back;
 * - it lost its endpoint (restarted without --state): registered again, and said;
 * - another listener took the endpoint: named, with the command that takes it back;
 * - its webhook key changed (a new emulator): with the key from the profile, adopted and said;
 *   with --public-key or SERVICE_WEBHOOK_PUBKEY, the user is told to pass the new key.
 */
import type { KeyObject } from 'node:crypto';
import type { LocalEndpoint } from './local-endpoint.js';

export interface WatchOptions {
  endpoint: LocalEndpoint;
  /** This listener's URL. */
  url: string;
  intervalMs: number;
  /** The key in the profile now (emulator start stores the running emulator's key there). */
  profileKey(): Promise<string | undefined>;
  /** The key deliveries are verified with now, and whether it came from the profile. */
  key: { pem: string; fromProfile: boolean } | undefined;
  /** Switches verification to a new key (PEM/hex as stored). */
  adoptKey(text: string): KeyObject;
  warn(line: string): void;
  info(line: string): void;
}

export function watchLocalEmulator(o: WatchOptions): () => void {
  let said = '';
  let busy = false;
  const once = (state: string, say: () => void) => {
    if (state !== said) say();
    said = state;
  };
  async function check(): Promise<void> {
    const now = await o.endpoint.current();
    if (now === undefined) {
      return once('down', () =>
        o.warn(
          `the emulator at ${o.endpoint.baseUrl} is not answering: nothing is delivered until it is back (svc emulator start); this listener keeps running`,
        ),
      );
    }
    if (now === null) {
      await o.endpoint.register();
      return once('lost', () =>
        o.warn(`the emulator had no webhook endpoint (restarted without --state?): registered ${o.url} again`),
      );
    }
    if (now !== o.url) {
      return once(`other:${now}`, () =>
        o.warn(
          `the emulator now delivers to ${now}, not to this listener (another svc webhook listen took over). Stop that one, or run svc webhook listen again here to take the endpoint back`,
        ),
      );
    }
    const stored = await o.profileKey();
    if (o.key && stored && stored !== o.key.pem) {
      if (o.key.fromProfile) {
        o.adoptKey(stored);
        o.key = { pem: stored, fromProfile: true };
        return once(`key:${stored}`, () =>
          o.warn(
            "the emulator's webhook key changed (a new emulator started): now verifying with the new key from the profile",
          ),
        );
      }
      return once(`key:${stored}`, () =>
        o.warn(
          "the local emulator's webhook key changed (a new emulator started): deliveries will fail verification. Restart this listener without --public-key (the profile has the new key), or pass the key svc emulator start printed",
        ),
      );
    }
    once('ok', () => {
      if (said !== '') o.info(`the emulator delivers to this listener again (${o.url})`);
    });
  }
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    check()
      .catch(() => {})
      .finally(() => (busy = false));
  }, o.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
