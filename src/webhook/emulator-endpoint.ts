/**
 * Against the local emulator the listener points the emulator's deliveries at itself with
 * PATCH /config {webhookEndpoint}, says which endpoint it replaces, and puts that one back when it
 * stops (unless someone else has taken over meanwhile). While it runs it checks every few seconds
 * that the emulator still delivers to it, with the key it verifies with, and reports at once (and
 * once per change) when that stopped being true:
 * - the emulator is down: deliveries wait until it is back;
 * - it lost its endpoint (restarted without a state file): registered again;
 * - another listener took the endpoint;
 * - its webhook key changed (a new emulator): adopted when the key came from the profile, else the
 *   caller is told it must pass the new one.
 * Other services are real ones: their endpoint is the integrator's to set.
 */
import type { ApiClient } from '../http/types.js';
import { UNSET_WEBHOOK_ENDPOINT_PATH } from '../service/emulator-endpoints.js';

/** How the listener reaches the emulator; both are read again on every call (a new emulator rewrites the profile). */
export interface EmulatorAccess {
  client(): Promise<ApiClient>;
  /** The webhook key the profile holds now (the running emulator's; PEM or hex as stored). */
  profileKey(): Promise<string | undefined>;
}

/** What the watch and the takeover report (ListenerEvent's `emulator` kind). */
export type EmulatorNews =
  | { kind: 'emulator'; news: 'registered' | 'replaced'; url: string; baseUrl: string; previous?: string }
  | { kind: 'emulator'; news: 'not-registered'; url: string; error: unknown }
  | { kind: 'emulator'; news: 'down'; baseUrl: string }
  | { kind: 'emulator'; news: 'lost' | 'back'; url: string }
  | { kind: 'emulator'; news: 'taken'; by: string }
  | { kind: 'emulator'; news: 'key-adopted' | 'key-changed' }
  | { kind: 'emulator'; news: 'restored'; previous: string }
  | { kind: 'emulator'; news: 'cleared' }
  | { kind: 'emulator'; news: 'not-restored'; error: unknown };

export interface LocalEndpoint {
  baseUrl: string;
  /** The endpoint this listener replaced (undefined: none was set). */
  previous: string | undefined;
  /** The emulator's endpoint now, or undefined when it cannot be asked (unreachable, refused). */
  current(): Promise<string | null | undefined>;
  register(): Promise<void>;
  /** Puts `previous` back if the endpoint is still this listener's; what it did, or undefined. */
  restore(): Promise<EmulatorNews | undefined>;
}

type ConfigBody = { webhookEndpoint?: string | null };

const read = async (client: ApiClient, signal?: AbortSignal) =>
  (await client.request<ConfigBody>({ method: 'GET', path: '/config', signal })).body.webhookEndpoint ?? null;
// PATCH /config takes only a URL (the description's string); "none" is the emulator's own DELETE.
const write = (client: ApiClient, endpoint: string | null) =>
  endpoint === null
    ? client.request({ method: 'DELETE', path: UNSET_WEBHOOK_ENDPOINT_PATH, fromRoot: true })
    : client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: endpoint } });

/** Registers `url` as the emulator's endpoint. Throws if the emulator cannot be reached. */
export async function takeOverEndpoint(
  access: EmulatorAccess,
  url: string,
  signal?: AbortSignal,
): Promise<LocalEndpoint> {
  const first = await access.client();
  const before = await read(first, signal);
  const previous = before !== null && before !== url ? before : undefined;
  await write(first, url);
  return {
    baseUrl: first.baseUrl,
    previous,
    current: async () => read(await access.client()).catch(() => undefined),
    register: async () => {
      await write(await access.client(), url);
    },
    async restore() {
      const client = await access.client();
      if ((await read(client)) !== url) return undefined; // another listener (or the user) took over: theirs now
      await write(client, previous ?? null);
      return previous ? { kind: 'emulator', news: 'restored', previous } : { kind: 'emulator', news: 'cleared' };
    },
  };
}

export interface WatchOptions {
  endpoint: LocalEndpoint;
  access: EmulatorAccess;
  /** This listener's URL. */
  url: string;
  intervalMs: number;
  /** The profile's key the listener verifies with (undefined: its key came from elsewhere, or none is stored). */
  key: { pem: string; fromProfile: boolean } | undefined;
  /** Switches verification to a new key (PEM/hex as stored). */
  adoptKey(text: string): void;
  report(news: EmulatorNews): void;
}

/** Starts the checks; returns the function that stops them. */
export function watchEndpoint(o: WatchOptions): () => void {
  let said = '';
  let busy = false;
  let key = o.key;
  const once = (state: string, news: EmulatorNews) => {
    if (state !== said) o.report(news);
    said = state;
  };
  async function check(): Promise<void> {
    const now = await o.endpoint.current();
    if (now === undefined) return once('down', { kind: 'emulator', news: 'down', baseUrl: o.endpoint.baseUrl });
    if (now === null) {
      await o.endpoint.register();
      return once('lost', { kind: 'emulator', news: 'lost', url: o.url });
    }
    if (now !== o.url) return once(`other:${now}`, { kind: 'emulator', news: 'taken', by: now });
    const stored = await o.access.profileKey();
    if (key && stored && stored !== key.pem) {
      if (!key.fromProfile) return once(`key:${stored}`, { kind: 'emulator', news: 'key-changed' });
      o.adoptKey(stored);
      key = { pem: stored, fromProfile: true };
      return once(`key:${stored}`, { kind: 'emulator', news: 'key-adopted' });
    }
    if (said !== '' && said !== 'ok') o.report({ kind: 'emulator', news: 'back', url: o.url });
    said = 'ok';
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
