/**
 * `svc webhook listen`: a local receiver that verifies, dedupes, prints (and optionally forwards) the
 * service's webhook deliveries until Ctrl-C. The listener is src/webhook/listener.ts; this file
 * checks the flags, says how it is set up, and renders the events it reports (listen-output.ts).
 * Events go to stdout; everything else to stderr.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { isCI, type Deps } from '../deps.js';
import type { UI } from '../ui.js';
import { UsageError } from '../../src/errors.js';
import { parseEventTypes } from '../../src/webhook/event-types.js';
import { startListener, type Listener } from '../../src/webhook/listener.js';
import { renderer, SKIP_VERIFY_WARNING } from './listen-output.js';
import { localEmulator } from './local-endpoint.js';
import { NO_KEY_HINT, resolveWebhookKey } from './public-key.js';
import { watchStdoutReader } from './stdout-reader.js';
import { atMostOne } from '../input.js';

export type ListenOptions = OptionsOf<typeof verbs.listen>;

export async function run(opts: ListenOptions, deps: Deps): Promise<void> {
  const { ui } = deps;
  if (!opts.path.startsWith('/'))
    throw new UsageError(`--path must start with "/", got "${opts.path}"`, { input: '--path' });
  const events = parseEventTypes(opts.events);
  atMostOne({ '--public-key': opts.publicKey, '--skip-verify': opts.skipVerify });
  if (opts.repair && opts.store === undefined)
    throw new UsageError('--repair mends a --store journal: give --store <file> with it', { input: '--repair' });

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
      input: '--public-key',
      hint: NO_KEY_HINT,
    });
  }

  const out = renderer(ui, deps, opts.store);
  const listener = await startListener({
    host: opts.host,
    port: opts.port,
    path: opts.path,
    key: key?.key,
    events,
    forwardTo: opts.forwardTo,
    route: opts.route,
    store: opts.store,
    repair: opts.repair,
    forwardTimeoutMs: opts.forwardTimeout * 1000,
    // In a script (--json, --no-input or CI) an app that is down is an error at once, not failed
    // deliveries later (a CI job must not hang); by hand a warning, as the app is often (re)started after.
    requireApps: deps.globals.json || !deps.globals.input || isCI(deps.env),
    emulator: await localEmulator(deps, getProfile, key?.source.startsWith('profile') ?? false),
    report: out.render,
  });
  try {
    describe(listener, { ...opts, events }, key?.source, deps, ui);
    // For CI: under --json the first stdout line says the listener is up, before any event.
    if (deps.globals.json)
      ui.json({
        ready: true,
        url: listener.url,
        publicKey: key ? key.key.export({ type: 'spki', format: 'pem' }).toString() : null,
      });
    out.ready();
    ui.info(`Ready! Listening for webhooks on ${listener.url} (Ctrl-C to stop)`);
    await stopped(deps, ui);
  } finally {
    await listener.close();
  }
  const s = listener.stats;
  ui.info(
    `Stopped. ${s.received} received (${s.filtered} filtered), ${s.duplicates} duplicates dropped, ${s.rejected} rejected, ${s.forwardFailed} forward failures.`,
  );
}

/** The setup lines on stderr: what is verified, remembered, resumed, forwarded and shown. */
function describe(
  l: Listener,
  opts: { store?: string; events?: ReadonlySet<string> },
  keySource: string | undefined,
  deps: Deps,
  ui: UI,
): void {
  if (keySource) ui.info(`Verifying X-Service-Signature with the key from ${keySource}`);
  else ui.warn(SKIP_VERIFY_WARNING.toUpperCase());
  for (const note of l.journalNotes) ui.warn(note);
  if (opts.store) ui.info(`Remembering delivery ids in ${opts.store} (${l.remembered} loaded)`);
  if (l.resumed > 0) {
    ui.warn(
      `${l.resumed} deliveries were interrupted by a crash: finishing them now (they may have been shown before; marked ${deps.globals.json ? '"redelivered": true' : 'redelivered'})`,
    );
  }
  for (const r of l.routes) ui.info(`Forwarding ${r.types.join(', ')} to ${r.url}`);
  if (l.forwardTo) ui.info(`Forwarding ${l.routes.length ? 'other' : 'verified'} deliveries to ${l.forwardTo}`);
  else if (l.routes.length) ui.info('Other event types are shown, not forwarded');
  if (opts.events) ui.info(`Showing only ${[...opts.events].join(', ')} (other events are acknowledged and recorded)`);
}

/** Ctrl-C (or SIGTERM), or stdout's reader gone while nothing is written (`| head -1`). */
async function stopped(deps: Deps, ui: UI): Promise<void> {
  const { signal } = deps;
  if (signal.aborted) return;
  let unwatch = () => {};
  try {
    await new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => resolve(), { once: true });
      // Only the process's own stdout has a reader to watch (a test's or the demo's deps write elsewhere).
      if (deps.io.stdout === process.stdout)
        unwatch = watchStdoutReader((why) => {
          ui.info(`stdout's reader is gone (${why}): stopping`);
          resolve();
        });
    });
  } finally {
    unwatch();
  }
}
