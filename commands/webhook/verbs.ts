/** `svc webhook …`: receive and check the service's webhook deliveries. */
import { arg, defineVerb, flag, verb } from '../verb.js';

/**
 * The listener verifies signatures on libuv's threadpool, which is 4 threads whatever the machine.
 * One thread per core does better both ways (test/bench/webhook-bench.mjs): on 2 cores, less CPU
 * per delivery (fewer threads preempting the event loop); on more than 4, verification is not
 * capped at 4 threads. libuv reads the size once, when the pool first starts (the first
 * asynchronous file or crypto call): so it is set here, before the listen action loads anything.
 * An explicit UV_THREADPOOL_SIZE wins. node:os is taken only here: this file is in the command root,
 * which every command loads.
 */
function sizeThreadpoolForVerifying(): void {
  process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, process.getBuiltinModule('node:os').availableParallelism()));
}

const publicKey = flag.value(
  '--public-key <pem|hex|@file>',
  "the service's webhook public key (env SERVICE_WEBHOOK_PUBKEY, or the profile)",
);

export const listen = defineVerb({
  name: 'listen',
  description: 'run a local receiver that verifies, dedupes and prints deliveries (Ctrl-C to stop)',
  // A reader gone from stdout (`| head -1`) stops it as Ctrl-C does: the emulator's endpoint is put
  // back and the journal closed, instead of the process ending at the first failed write.
  serves: true,
  flags: {
    host: flag.withDefault('--host <host>', 'address to listen on', '127.0.0.1'),
    port: flag.integer('--port <port>', 'port to listen on (0 picks a free one)', { min: 0, max: 65535 }, 4242),
    path: flag.withDefault('--path <path>', 'URL path deliveries are POSTed to', '/webhooks'),
    publicKey,
    skipVerify: flag.boolean(
      '--skip-verify',
      'accept deliveries without checking X-Service-Signature (unsafe; announced on every event)',
    ),
    events: flag.value(
      '--events <types>',
      'comma-separated event types to print and forward; others are acknowledged silently',
      'event-types',
    ),
    forwardTo: flag.value(
      '--forward-to <url>',
      'forward each verified delivery, byte for byte, to your app; its errors go back to the service',
    ),
    route: flag.repeatable(
      '--route <types=url|@file>',
      'forward these event types (comma-separated, FAMILY.* for a family) to this URL; repeatable, or @file with one TYPES=URL a line; first match wins, others go to --forward-to',
    ),
    store: flag.file(
      '--store <file>',
      "journal deliveries in this file (fsync'd; one listener at a time): a restart drops duplicates, finishes what a crash interrupted (marked redelivered) and retries failed forwards",
    ),
    repair: flag.boolean(
      '--repair',
      'with --store: move a damaged journal tail aside into a file next to it (named on stderr) instead of refusing to start',
    ),
    forwardTimeout: flag.integer(
      '--forward-timeout <seconds>',
      'a forward your app has not answered in this long fails (504) and is retried',
      { min: 1, max: 600 },
      5,
    ),
  },
  help: `
--store keeps a journal that svc creates and marks: a file that is not one (or a symbolic link) is
refused before anything is written. With --store a failed forward is answered 200 to the service
and retried here: one delivery at a time per app, waiting 1 s, doubling with jitter up to 60 s,
while newer deliveries for that app wait behind it; the bodies stay on disk, not in memory.

Examples:
  $ svc webhook listen
  $ svc webhook listen --forward-to localhost:3000/webhooks --store seen.json`,
});

export const verify = defineVerb({
  name: 'verify',
  description: 'check a saved delivery\'s X-Service-Signature offline; prints "valid" or fails (exit 1)',
  flags: {
    publicKey,
    signature: flag.required('--signature <header>', 'the X-Service-Signature header value'),
    body: flag.value('--body <text>', 'the exact body as text'),
    bodyFile: flag.file('--body-file <path>', 'read the exact body bytes from a file ("-" for stdin)'),
  },
  help: `
Example:
  $ svc webhook verify --public-key @webhook.pem --signature "$SIG" --body-file body.json`,
});

export const replay = defineVerb({
  name: 'replay',
  description:
    "re-deliver events from the emulator's event log, signed, same envelope id (emulator-only); with --store, re-forward from a listener's journal",
  args: { ids: arg.variadic('[ids...]', 'Webhook:<uuid> ids of the events to re-deliver') },
  flags: {
    since: flag.value(
      '--since <time>',
      'events since a span back on the emulator clock (30m, 2h, 7d) or a date-time (2026-11-26T09:00:00Z)',
    ),
    type: flag.value(
      '--type <TYPE,…>',
      'only these event types, comma-separated (e.g. CARD.STATE_CHANGE)',
      'event-types',
    ),
    to: flag.value(
      '--to <url>',
      "deliver to this URL instead of the emulator's configured webhook endpoint (with --store: instead of the URL each delivery was forwarded to)",
    ),
    store: flag.file(
      '--store <file>',
      "journal mode: re-forward deliveries from this `webhook listen --store` journal (raw body and headers) instead of the emulator's log",
    ),
    failed: flag.boolean(
      '--failed',
      'journal mode: the deliveries whose forward failed (the listener is retrying them)',
    ),
    last: flag.integer(
      '--last <n>',
      'journal mode: the newest N deliveries (the journal keeps the last 500 done ones)',
      {
        min: 1,
      },
    ),
  },
  help: `
Selects events by id, --since and --type (all given criteria apply; at least one is needed) and
delivers each again, oldest first: the same body, so the same envelope id, and a fresh signature. A
consumer that dedupes by id answers 409 to one it already processed ("duplicate"). Events raised
while no webhook endpoint was set are kept in the log, undelivered, for this. The log holds the
newest 1000 events. Exit 1 when an event's first attempt failed (the emulator keeps retrying it).

The service has no endpoint to resend events: against it this command refuses (exit 2).

Journal mode (--store <file> with --failed and/or --last N) works without the emulator: it reads a
\`webhook listen --store\` journal (also while that listener runs) and forwards each selected
delivery again, byte for byte with its service headers, to --to or else to the URL it was forwarded
to. Each line shows the app's new answer beside the journaled verification result and answer.
--failed --last N takes the newest N failed ones. Exit 1 when any forward fails.

Examples:
  $ svc webhook replay --since 1h
  $ svc webhook replay Webhook:<uuid> Webhook:<uuid>
  $ svc webhook replay --type CARD.STATE_CHANGE --since 2026-11-26T09:00:00Z --to http://127.0.0.1:3000/hooks
  $ svc webhook replay --store seen.json --failed
  $ svc webhook replay --store seen.json --last 5 --to localhost:3000/webhooks`,
});

export const webhookVerbs = [
  verb(listen, () => {
    sizeThreadpoolForVerifying();
    return import('./listen.js');
  }),
  verb(verify, () => import('./verify.js')),
  verb(replay, () => import('./replay.js')),
];
