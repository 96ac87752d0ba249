/**
 * `svc webhook listen`: a local receiver that verifies, dedupes, prints (and optionally forwards) the
 * service's webhook deliveries until Ctrl-C. The engine is src/webhook/receiver.ts; this file only
 * configures it and renders what it reports. Events go to stdout; everything else to stderr.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { createUI, type UI } from '../ui.js';
import { UsageError } from '../../src/errors.js';
import { openSeenIds, type SeenIds } from '../../src/webhook/dedupe.js';
import { createForwarder, type Forwarder } from '../../src/webhook/forward.js';
import { createWebhookReceiver, type ReceiverOptions, type WebhookReceiver } from '../../src/webhook/receiver.js';
import { CardStates, describeEvent, eventRecord } from '../../src/webhook/render.js';
import { createAsyncWebhookVerifier } from '../../src/crypto/webhook-signature.js';
import { formatDuplicate, formatEvent, formatForward, formatMs } from './format.js';
import { registerWithLocalEmulator } from './local-endpoint.js';
import { NO_KEY_HINT, resolveWebhookKey } from './public-key.js';
import { atMostOne } from '../input.js';
import type { SelectedProfile } from '../../src/store/resolve.js';

export type ListenOptions = OptionsOf<typeof verbs.listen>;

const SKIP_VERIFY_WARNING = 'signatures are NOT verified (--skip-verify): anyone who can reach this port can inject events';

export async function run(opts: ListenOptions, deps: Deps): Promise<void> {
  const ui = createUI(deps);
  const port = parsePort(opts.port);
  if (!opts.path.startsWith('/')) throw new UsageError(`--path must start with "/", got "${opts.path}"`, { field: '--path' });
  const events = parseEvents(opts.events);
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
    throw new UsageError('no webhook public key to verify deliveries with: pass --public-key', { field: '--public-key', hint: NO_KEY_HINT });
  }

  const forwarder = opts.forwardTo !== undefined ? createForwarder(opts.forwardTo) : undefined;
  const dedupe = openStoreFlag(opts.store);
  let receiver: WebhookReceiver | undefined;
  try {
    receiver = await listen({ host: opts.host, port, path: opts.path, verify: key && createAsyncWebhookVerifier(key.key), dedupe, events, forwarder, ...handlers(ui, deps, forwarder) });
    const registered = await registerLocal(await getProfile(), receiver.url, deps, ui);
    if (registered) ui.info(`Registered ${receiver.url} as the webhook endpoint of ${registered} (PATCH /config)`);
    if (key) ui.info(`Verifying X-Service-Signature with the key from ${key.source}`);
    else ui.warn(SKIP_VERIFY_WARNING.toUpperCase());
    if (opts.store) ui.info(`Remembering delivery ids in ${opts.store} (${dedupe.size} loaded)`);
    if (receiver.resumed > 0) {
      ui.warn(`${receiver.resumed} deliveries were interrupted by a crash: finishing them now (they may have been shown before; marked ${deps.globals.json ? '"redelivered": true' : 'redelivered'})`);
    }
    if (forwarder) ui.info(`Forwarding verified deliveries to ${forwarder.url}`);
    if (events) ui.info(`Showing only ${[...events].join(', ')} (other events are acknowledged and recorded)`);
    ui.info(`Ready! Listening for webhooks on ${receiver.url} (Ctrl-C to stop)`);
    await aborted(deps.signal);
  } finally {
    await receiver?.close();
    await forwarder?.close();
    await dedupe.close();
  }
  const s = receiver!.stats; // assigned: a failed listen() threw before the wait
  ui.info(`Stopped. ${s.received} received (${s.filtered} filtered), ${s.duplicates} duplicates dropped, ${s.rejected} rejected, ${s.forwardFailed} forward failures.`);
}

function handlers(ui: UI, deps: Deps, forwarder: Forwarder | undefined): Pick<ReceiverOptions, 'onEvent' | 'onDuplicate' | 'onRejected' | 'onForwardFailed' | 'onFiltered' | 'onError'> {
  const cards = new CardStates();
  const json = deps.globals.json;
  // Read per line: a terminal can be resized while listening. 0 (unknown) for pipes and files.
  const columns = () => (deps.io.stdoutIsTTY ? ((deps.io.stdout as { columns?: number }).columns ?? 0) : 0);
  return {
    onEvent({ event, verified, forward, redelivered }) {
      // Describe even under --json: it keeps the per-card state that "ACTIVE after PROCESSING" needs.
      const parts = describeEvent(event, cards);
      if (!verified) ui.warn(`UNVERIFIED event ${event.id}: ${SKIP_VERIFY_WARNING}`);
      if (!json) ui.out(formatEvent(ui.c, parts, forward, forwarder?.url, columns(), redelivered));
      else {
        ui.json(eventRecord(event, verified, redelivered));
        // stdout keeps its one-line-per-event shape; the app's answer goes with the other notes.
        if (forward && forwarder) ui.info(`${event.id} ${formatForward(forward, forwarder.url)}`);
      }
      // The id is recorded as seen only once its line has left this process (the crash contract).
      return written(deps.io.stdout);
    },
    onFiltered(event) {
      describeEvent(event, cards);
      if (deps.globals.verbose) ui.info(ui.ce.dim(`filtered  ${event.type}  [${event.id}] acknowledged, not shown`));
    },
    onDuplicate(event) {
      // Under --json stdout carries only events, so the duplicate line goes to stderr (its own colours).
      if (json) ui.info(formatDuplicate(ui.ce, event, 0));
      else ui.out(formatDuplicate(ui.c, event, columns()));
    },
    onRejected({ status, reason, remote }) {
      ui.warn(`rejected a request from ${remote ?? 'unknown'}: ${status} ${reason}`);
    },
    onForwardFailed(event, result) {
      const what = result.error ? `${result.status} (${result.error})` : `${result.status}`;
      ui.warn(`forwarding ${event.id} to ${forwarder?.url} failed: ${what} after ${formatMs(result.ms)}; answered ${result.status} so the service retries`);
    },
    onError(error, event) {
      ui.warn(`could not process ${event.id}: ${error instanceof Error ? error.message : String(error)}`);
    },
  };
}

async function listen(options: ReceiverOptions): Promise<WebhookReceiver> {
  try {
    return await createWebhookReceiver(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new UsageError(`port ${options.port} on ${options.host} is already in use`, { field: '--port', hint: 'Pass another --port (0 picks a free one).' });
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
async function registerLocal(ctx: SelectedProfile | undefined, url: string, deps: Deps, ui: UI): Promise<string | undefined> {
  try {
    return await registerWithLocalEmulator(ctx, url, deps);
  } catch (error) {
    ui.warn(`could not register ${url} with the local emulator: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

function openStoreFlag(path: string | undefined): SeenIds {
  try {
    return openSeenIds({ storePath: path });
  } catch (error) {
    if (error instanceof UsageError) throw error; // in use by another listener: already says so
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : 'unreadable');
    throw new UsageError(`cannot use --store ${path} (${code})`, { field: '--store', hint: 'Pass a --store file in a folder you can write.' });
  }
}

function parsePort(value: string | number): number {
  const port = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${value}"`, { field: '--port' });
  }
  return port;
}

function parseEvents(value: string | undefined): Set<string> | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (types.length === 0) throw new UsageError('--events needs at least one event type, e.g. CARD.STATE_CHANGE', { field: '--events' });
  return new Set(types);
}

/**
 * Undefined when everything written to `stream` has reached its file descriptor (a terminal, a file,
 * or a pipe with room), else a promise that settles once it has: a pipe whose reader lags keeps the
 * rest in this process's memory, which a crash would lose.
 */
function written(stream: NodeJS.WritableStream): Promise<void> | undefined {
  const pending = (stream as { writableLength?: number }).writableLength;
  if (!pending) return undefined;
  // An empty write's callback runs after every write queued before it; an error (closed stdout) too.
  return new Promise((resolve) => stream.write('', () => resolve()));
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
