/**
 * `svc webhook listen`: a local receiver that verifies, dedupes, prints (and optionally forwards) the
 * service's webhook deliveries until Ctrl-C. The engine is src/webhook/receiver.ts; this file only
 * configures it and renders what it reports. Events go to stdout; everything else to stderr.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { isCI, type Deps } from '../deps.js';
import { createUI, type UI } from '../ui.js';
import { UsageError } from '../../src/errors.js';
import { openSeenIds, type SeenIds } from '../../src/webhook/dedupe.js';
import { createForwarder, type Forwarder } from '../../src/webhook/forward.js';
import { createRoutedForwarder, type Route } from '../../src/webhook/routes.js';
import { createWebhookReceiver, type ReceiverOptions, type WebhookReceiver } from '../../src/webhook/receiver.js';
import { createAsyncWebhookVerifier } from '../../src/crypto/webhook-signature.js';
import { handlers, SKIP_VERIFY_WARNING } from './listen-output.js';
import { takeOverLocalEndpoint, type LocalEndpoint } from './local-endpoint.js';
import { watchLocalEmulator } from './emulator-watch.js';
import { parseEventsFlag } from './events-filter.js';
import { parseWebhookPublicKey } from '../../src/crypto/webhook-signature.js';
import { NO_KEY_HINT, resolveWebhookKey } from './public-key.js';
import { atMostOne, readFileInput } from '../input.js';
import { integerFlag } from '../integer-flag.js';
import type { SelectedProfile } from '../../src/store/resolve.js';

export type ListenOptions = OptionsOf<typeof verbs.listen>;

export async function run(opts: ListenOptions, deps: Deps): Promise<void> {
  const ui = createUI(deps);
  const port = integerFlag(opts.port, '--port', 0, 65535);
  if (!opts.path.startsWith('/'))
    throw new UsageError(`--path must start with "/", got "${opts.path}"`, { field: '--path' });
  const events = parseEventsFlag(opts.events);
  atMostOne({ '--public-key': opts.publicKey, '--skip-verify': opts.skipVerify });

  let profileError: unknown;
  const getProfile = () =>
    deps.profile().catch((error: unknown) => {
      profileError = error;
      return undefined;
    });
  const key = opts.skipVerify ? undefined : await resolveWebhookKey(opts.publicKey, deps, getProfile);
  if (!opts.skipVerify && key === undefined) {
    if (profileError) throw profileError; // the profile might have held the key: say why it could not be read
    throw new UsageError('no webhook public key to verify deliveries with: pass --public-key', {
      field: '--public-key',
      hint: NO_KEY_HINT,
    });
  }

  const routes = parseRoutes(await expandRouteFiles(opts.route, deps));
  const fallback = opts.forwardTo !== undefined ? createForwarder(opts.forwardTo) : undefined;
  const forwarder = routes.length ? createRoutedForwarder(routes, fallback) : fallback;
  // The app should be up first. In a script (--json, --no-input or CI) that is an error at once, not
  // failed deliveries later (a CI job must not hang); by hand a warning, as the app is often
  // (re)started after the listener.
  const unreachable = await forwarder?.probe();
  const field = routes.length ? '--route' : '--forward-to';
  const unreachableLine =
    unreachable && `${field} ${unreachable.startsWith('http') ? '' : `${forwarder!.url}: `}${unreachable}`;
  if (unreachableLine && (deps.globals.json || !deps.globals.input || isCI(deps.env))) {
    await forwarder!.close();
    throw new UsageError(unreachableLine, {
      field,
      hint: 'Start your app first (or fix the URL), then start the listener.',
    });
  }
  if (unreachableLine)
    ui.warn(
      `${unreachableLine}; deliveries are answered with an error${opts.store ? ' (with --store: kept and retried)' : ''} until your app is up`,
    );
  const dedupe = openStoreFlag(opts.store);
  // Verification goes through `verifier`, so a new emulator's key can be adopted while running.
  let verifier = key && createAsyncWebhookVerifier(key.key);
  const verify: ReceiverOptions['verify'] = verifier && ((body, header) => verifier!(body, header));
  let receiver: WebhookReceiver | undefined;
  let endpoint: LocalEndpoint | undefined;
  let stopWatching = () => {};
  try {
    const { ready, ...callbacks } = handlers(ui, deps, forwarder);
    receiver = await listen({
      host: opts.host,
      port,
      path: opts.path,
      verify,
      dedupe,
      events,
      forwarder,
      ...callbacks,
    });
    const ctx = await getProfile();
    endpoint = await takeOver(ctx, receiver.url, deps, ui, getProfile);
    if (endpoint?.previous)
      ui.warn(
        `replacing the emulator's webhook endpoint ${endpoint.previous} with ${receiver.url}; it is put back when this listener stops`,
      );
    else if (endpoint)
      ui.info(`Registered ${receiver.url} as the webhook endpoint of ${endpoint.baseUrl} (PATCH /config)`);
    if (key) ui.info(`Verifying X-Service-Signature with the key from ${key.source}`);
    else ui.warn(SKIP_VERIFY_WARNING.toUpperCase());
    if (opts.store) ui.info(`Remembering delivery ids in ${opts.store} (${dedupe.size} loaded)`);
    if (receiver.resumed > 0) {
      ui.warn(
        `${receiver.resumed} deliveries were interrupted by a crash: finishing them now (they may have been shown before; marked ${deps.globals.json ? '"redelivered": true' : 'redelivered'})`,
      );
    }
    for (const r of routes) ui.info(`Forwarding ${[...r.types].join(', ')} to ${r.forwarder.url}`);
    if (fallback) ui.info(`Forwarding ${routes.length ? 'other' : 'verified'} deliveries to ${fallback.url}`);
    else if (routes.length) ui.info('Other event types are shown, not forwarded');
    if (events) ui.info(`Showing only ${[...events].join(', ')} (other events are acknowledged and recorded)`);
    if (endpoint) {
      const stored = ctx?.stored?.webhookPublicKey;
      stopWatching = watchLocalEmulator({
        endpoint,
        url: receiver.url,
        intervalMs: checkInterval(deps.env),
        profileKey: async () => (await getProfile())?.stored?.webhookPublicKey,
        key: key && stored ? { pem: stored, fromProfile: key.source.startsWith('profile') } : undefined,
        adoptKey: (text) => {
          const next = parseWebhookPublicKey(text);
          verifier = createAsyncWebhookVerifier(next);
          return next;
        },
        warn: (line) => ui.warn(line),
        info: (line) => ui.info(line),
      });
    }
    // For CI: under --json the first stdout line says the listener is up, before any event.
    if (deps.globals.json)
      ui.json({
        ready: true,
        url: receiver.url,
        publicKey: key ? key.key.export({ type: 'spki', format: 'pem' }).toString() : null,
      });
    ready();
    ui.info(`Ready! Listening for webhooks on ${receiver.url} (Ctrl-C to stop)`);
    await aborted(deps.signal);
  } finally {
    stopWatching();
    if (endpoint) {
      const restored = await endpoint
        .restore()
        .catch(
          (error: unknown) =>
            `Could not put back the emulator's webhook endpoint: ${error instanceof Error ? error.message : String(error)}`,
        );
      if (restored) ui.info(restored);
    }
    await receiver?.close();
    await forwarder?.close();
    await dedupe.close();
  }
  const s = receiver!.stats; // assigned: a failed listen() threw before the wait
  ui.info(
    `Stopped. ${s.received} received (${s.filtered} filtered), ${s.duplicates} duplicates dropped, ${s.rejected} rejected, ${s.forwardFailed} forward failures.`,
  );
}

async function listen(options: ReceiverOptions): Promise<WebhookReceiver> {
  try {
    return await createWebhookReceiver(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(`port ${options.port} on ${options.host} is already in use`, {
        field: '--port',
        hint: 'Pass another --port (0 picks a free one).',
      });
    }
    if (code === 'EADDRNOTAVAIL' || code === 'EACCES' || code === 'ENOTFOUND') {
      throw new UsageError(`cannot listen on ${options.host}:${options.port} (${code})`, {
        field: '--host',
        hint: 'Pass a --host address of this machine (the default is 127.0.0.1), or a --port above 1023.',
      });
    }
    throw error;
  }
}

/** Registration failure is not fatal: the listener works; the user can set the endpoint by hand. */
async function takeOver(
  ctx: SelectedProfile | undefined,
  url: string,
  deps: Deps,
  ui: UI,
  profile: () => Promise<SelectedProfile | undefined>,
): Promise<LocalEndpoint | undefined> {
  try {
    return await takeOverLocalEndpoint(ctx, url, deps, profile);
  } catch (error) {
    ui.warn(
      `could not register ${url} with the local emulator: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

/** SVC_WEBHOOK_CHECK_MS: how often the local emulator is checked (default 3000 ms). */
function checkInterval(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.SVC_WEBHOOK_CHECK_MS);
  return Number.isInteger(ms) && ms >= 100 ? ms : 3000;
}

function openStoreFlag(path: string | undefined): SeenIds {
  try {
    return openSeenIds({ storePath: path });
  } catch (error) {
    if (error instanceof UsageError) throw error; // in use by another listener: already says so
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : 'unreadable');
    throw new UsageError(`cannot use --store ${path} (${code})`, {
      field: '--store',
      hint: 'Pass a --store file in a folder you can write.',
    });
  }
}

/**
 * `--route @routes.txt`: the routes of a file, one TYPES=URL a line (blank lines and `#` comments
 * skipped), in order, where the flag stood: a team keeps its routing in the repository.
 */
async function expandRouteFiles(values: string[] | undefined, deps: Deps): Promise<string[]> {
  const routes: string[] = [];
  for (const value of values ?? []) {
    if (!value.startsWith('@')) {
      routes.push(value);
      continue;
    }
    const text = (await readFileInput(value.slice(1), '--route', deps)).toString('utf8');
    const lines = text.split(/\r?\n/).map((line) => line.replace(/(^|\s)#.*/, '').trim());
    const found = lines.filter((line) => line !== '');
    if (found.length === 0)
      throw new UsageError(`--route ${value}: the file has no TYPES=URL line`, { field: '--route' });
    routes.push(...found);
  }
  return routes;
}

/** `--route TYPES=URL` values, each checked before anything starts (exit 2 naming --route). */
function parseRoutes(values: string[] | undefined): Route[] {
  return (values ?? []).map((value) => {
    const at = value.indexOf('=');
    if (at <= 0 || at === value.length - 1) {
      throw new UsageError(`--route must be TYPES=URL, e.g. 'CARD.*=http://localhost:3000/cards', got "${value}"`, {
        field: '--route',
      });
    }
    const types = parseEventsFlag(value.slice(0, at), '--route')!;
    let forwarder: Forwarder;
    try {
      forwarder = createForwarder(value.slice(at + 1).trim());
    } catch {
      throw new UsageError(`--route ${value}: the target must be an http(s) URL`, { field: '--route' });
    }
    return { types, forwarder };
  });
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
