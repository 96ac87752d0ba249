/**
 * The webhook listener, as one call (the shape of stripe-cli's proxy.Config):
 * `startListener(config)` checks and opens everything (routes and route files, the forwarders and
 * a probe of the apps behind them, the journal, the receiver), takes over the local emulator's
 * endpoint and watches it, and returns `{url, …, close}`. Everything that happens is reported as
 * one typed stream of ListenerEvents to `config.report`; the caller decides how each one looks.
 * `close()` tears down in the one safe order: stop watching, give the emulator its endpoint back,
 * drain the receiver, then the forwarders, then the journal.
 *
 * Errors name the input they are about by its config key (`input`: ListenerInput) with a `reason`
 * code: a CLI shows the key as its flag, so nothing needs catching to be said again.
 */
import type { KeyObject } from 'node:crypto';
import { UsageError } from '../errors.js';
import { createAsyncWebhookVerifier, parseWebhookPublicKey } from '../crypto/webhook-signature.js';
import { openSeenIds, type SeenIds } from './dedupe.js';
import {
  takeOverEndpoint,
  watchEndpoint,
  type EmulatorAccess,
  type EmulatorNews,
  type LocalEndpoint,
} from './emulator-endpoint.js';
import { createForwarder, type ForwardResult, type Forwarder, type ForwarderOptions } from './forward.js';
import { createWebhookReceiver, type ReceiverOptions, type WebhookReceiver } from './receiver.js';
import type { AcceptedEvent, ReceiverStats, Rejection } from './receiver-types.js';
import type { WebhookEvent } from './envelope.js';
import { createRoutedForwarder, readRoutes } from './routes.js';

export type { EmulatorAccess, EmulatorNews } from './emulator-endpoint.js';

/** The config keys errors name as their `input`. */
export type ListenerInput = 'host' | 'port' | 'forwardTo' | 'route' | 'store';

export interface ListenerConfig {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  path?: string;
  /** The key X-Service-Signature is verified with; undefined: nothing is verified (announced on every event). */
  key: KeyObject | undefined;
  /** Types shown and forwarded; others are acknowledged and recorded silently. Absent: all. */
  events?: ReadonlySet<string>;
  /** Where verified deliveries go (the fallback of the routes). */
  forwardTo?: string;
  /** `TYPES=URL` routes or `@file`s of them; first match wins. */
  route?: readonly string[];
  /** The journal file: dedupe across restarts, crash recovery, local forward retries. */
  store?: string;
  /** A damaged journal: move its damaged tail aside (and say so in `journalNotes`) instead of refusing it. */
  repair?: boolean;
  /** How long one forward may take before it counts as failed (504). Default DEFAULT_FORWARD_TIMEOUT_MS. */
  forwardTimeoutMs?: number;
  /** Runs `fire` after `ms` (returns a cancel): the forward timeout's clock, for a test to move. Default real timers. */
  forwardTimer?: ForwarderOptions['timer'];
  /** An app that cannot be reached at start is an error (a script must not wait on it), not a reported warning. */
  requireApps?: boolean;
  /** The local emulator, to take its endpoint over and watch it. `keyFromProfile`: the key came from the profile. */
  emulator?: { access: EmulatorAccess; intervalMs: number; keyFromProfile: boolean };
  /** Every event; a delivery's promise holds its recording (and its answer) until its line is written. */
  report(event: ListenerEvent): void | Promise<void>;
  forwardRetry?: ReceiverOptions['forwardRetry'];
  scheduleRetry?: ReceiverOptions['scheduleRetry'];
}

export type ListenerEvent =
  | ({ kind: 'delivery' } & AcceptedEvent)
  | { kind: 'filtered' | 'duplicate'; event: WebhookEvent }
  | ({ kind: 'rejected' } & Rejection)
  | { kind: 'forward-failed'; event: WebhookEvent; result: ForwardResult }
  /** `result` undefined (attempt 0): it joined the deliveries already waiting for `target`, without an attempt. */
  | {
      kind: 'forward-queued';
      event: WebhookEvent;
      result: ForwardResult | undefined;
      attempt: number;
      retryInMs: number;
      target: string;
    }
  | { kind: 'error'; event: WebhookEvent; error: unknown }
  /** At start, without requireApps: the app `input` names cannot be reached yet; `line` says which and why. */
  | { kind: 'app-unreachable'; input: ListenerInput; line: string }
  | EmulatorNews;

export interface Listener {
  /** http://host:port/path */
  url: string;
  routes: Array<{ types: string[]; url: string }>;
  /** Where deliveries no route takes go. */
  forwardTo?: string;
  /** Ids the journal already held. */
  remembered: number;
  /** Deliveries a crash interrupted, being finished now from the journal. */
  resumed: number;
  /** What opening the journal moved aside (a torn or damaged tail), for the user to be told. */
  journalNotes: readonly string[];
  /** The emulator whose endpoint this listener took over, and the one it replaced. */
  emulator?: { baseUrl: string; previous?: string };
  stats: Readonly<ReceiverStats>;
  /** Stops, in order, and says what the listener did. */
  close(): Promise<Readonly<ReceiverStats>>;
}

export async function startListener(config: ListenerConfig): Promise<Listener> {
  const forwarding: ForwarderOptions = { timeoutMs: config.forwardTimeoutMs, timer: config.forwardTimer };
  const routes = await readRoutes(config.route ?? [], 'route', forwarding);
  const fallback = config.forwardTo !== undefined ? createForwarder(config.forwardTo, forwarding) : undefined;
  const forwarder = routes.length ? createRoutedForwarder(routes, fallback) : fallback;
  let dedupe: SeenIds | undefined;
  let receiver: WebhookReceiver | undefined;
  let endpoint: LocalEndpoint | undefined;
  let stopWatching = () => {};
  // The one teardown order: nothing new arrives from the emulator, then what is in flight finishes.
  const close = async () => {
    stopWatching();
    if (endpoint) await restore(endpoint, config);
    await receiver?.close();
    await forwarder?.close();
    await dedupe?.close();
  };
  try {
    if (forwarder) await probe(forwarder, routes.length ? 'route' : 'forwardTo', config);
    dedupe = openStore(config.store, config.repair ?? false);
    // Verification goes through `verifier`, so a new emulator's key can be adopted while running.
    let verifier = config.key && createAsyncWebhookVerifier(config.key);
    const verify: ReceiverOptions['verify'] = verifier && ((body, header) => verifier!(body, header));
    receiver = await listen(config, { verify, dedupe, forwarder });
    const emulator = config.emulator;
    endpoint = emulator && (await takeOver(config, receiver.url));
    if (emulator && endpoint) {
      const stored = await emulator.access.profileKey();
      stopWatching = watchEndpoint({
        endpoint,
        access: emulator.access,
        url: receiver.url,
        intervalMs: emulator.intervalMs,
        key: config.key && stored ? { pem: stored, fromProfile: emulator.keyFromProfile } : undefined,
        adoptKey: (text) => (verifier = createAsyncWebhookVerifier(parseWebhookPublicKey(text))),
        report: (news) => void config.report(news),
      });
    }
  } catch (error) {
    await close();
    throw error;
  }
  const { url, stats, resumed } = receiver;
  return {
    url,
    routes: routes.map((r) => ({ types: [...r.types], url: r.forwarder.url })),
    ...(fallback && { forwardTo: fallback.url }),
    remembered: dedupe.size,
    resumed,
    journalNotes: dedupe.notes,
    ...(endpoint && {
      emulator: { baseUrl: endpoint.baseUrl, ...(endpoint.previous && { previous: endpoint.previous }) },
    }),
    stats,
    close: async () => {
      await close();
      return stats;
    },
  };
}

/** The app should be up first: with requireApps that is an error at once, else a reported warning. */
async function probe(forwarder: Forwarder, input: ListenerInput, config: ListenerConfig): Promise<void> {
  const why = await forwarder.probe();
  if (!why) return;
  // A routed forwarder's answer starts with the URL that failed.
  const line = `cannot reach ${why.startsWith('http') ? why : `${forwarder.url}: ${why}`}`;
  if (config.requireApps)
    throw new UsageError(line, {
      input,
      reason: 'APP_UNREACHABLE',
      hint: 'Start your app first (or fix the URL), then start the listener.',
    });
  await config.report({ kind: 'app-unreachable', input, line });
}

function openStore(path: string | undefined, repair: boolean): SeenIds {
  try {
    return openSeenIds({ storePath: path, input: 'store', repair });
  } catch (error) {
    if (error instanceof UsageError) throw error; // in use by another listener: already says so
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : 'unreadable');
    throw new UsageError(`cannot use ${path} as the journal (${code})`, {
      input: 'store',
      reason: 'STORE_UNUSABLE',
      hint: 'Give a journal file in a folder you can write.',
    });
  }
}

async function listen(
  config: ListenerConfig,
  parts: Pick<ReceiverOptions, 'verify' | 'dedupe' | 'forwarder'>,
): Promise<WebhookReceiver> {
  const report = config.report;
  const host = config.host ?? '127.0.0.1';
  try {
    return await createWebhookReceiver({
      host,
      port: config.port,
      path: config.path,
      events: config.events,
      ...parts,
      forwardRetry: config.forwardRetry,
      scheduleRetry: config.scheduleRetry,
      onEvent: (accepted) => report({ kind: 'delivery', ...accepted }),
      onFiltered: (event) => void report({ kind: 'filtered', event }),
      onDuplicate: (event) => void report({ kind: 'duplicate', event }),
      onRejected: (rejection) => void report({ kind: 'rejected', ...rejection }),
      onForwardFailed: (event, result) => void report({ kind: 'forward-failed', event, result }),
      onForwardQueued: (event, result, attempt, retryInMs, target) =>
        void report({ kind: 'forward-queued', event, result, attempt, retryInMs, target }),
      onError: (error, event) => void report({ kind: 'error', event, error }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(`port ${config.port} on ${host} is already in use`, {
        input: 'port',
        reason: 'PORT_IN_USE',
        hint: 'Choose another port (0 picks a free one).',
      });
    }
    if (code === 'EADDRNOTAVAIL' || code === 'EACCES' || code === 'ENOTFOUND') {
      throw new UsageError(`cannot listen on ${host}:${config.port} (${code})`, {
        input: 'host',
        reason: 'CANNOT_LISTEN',
        hint: 'Choose an address of this machine (the default is 127.0.0.1), or a port above 1023.',
      });
    }
    throw error;
  }
}

/** Registration failure is not fatal: the listener works; the user can set the endpoint by hand. */
async function takeOver(config: ListenerConfig, url: string): Promise<LocalEndpoint | undefined> {
  try {
    const taken = await takeOverEndpoint(config.emulator!.access, url);
    await config.report(
      taken.previous
        ? { kind: 'emulator', news: 'replaced', url, baseUrl: taken.baseUrl, previous: taken.previous }
        : { kind: 'emulator', news: 'registered', url, baseUrl: taken.baseUrl },
    );
    return taken;
  } catch (error) {
    await config.report({ kind: 'emulator', news: 'not-registered', url, error });
    return undefined;
  }
}

async function restore(endpoint: LocalEndpoint, config: ListenerConfig): Promise<void> {
  const news = await endpoint
    .restore()
    .catch((error: unknown): EmulatorNews => ({ kind: 'emulator', news: 'not-restored', error }));
  if (news) await config.report(news);
}
