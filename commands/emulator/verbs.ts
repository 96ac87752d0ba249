/** `svc emulator …`: the embedded sandbox. */
import { defineVerb, flag, verb } from '../verb.js';

export const start = defineVerb({
  name: 'start',
  description: 'run the emulator until Ctrl-C; prints its base URL, credentials, keys and fixtures (--json: one line)',
  flags: {
    host: flag.withDefault('--host <host>', 'interface to listen on', '127.0.0.1'),
    port: flag.withDefault('--port <port>', 'port to listen on (0 picks a free one)', '4010'),
    state: flag.value('--state <file>', 'load state from this file at start and save it there on every change'),
    processingRetries: flag.withDefault(
      '--processing-retries <n>',
      'answer 200 PROCESSING to the first N signed retries of each request',
      '0',
    ),
    sessionTtl: flag.withDefault('--session-ttl <seconds>', 'lifetime of new sessions', '900'),
    duplicateDeliveries: flag.boolean(
      '--duplicate-deliveries',
      'deliver every webhook twice (same id) to exercise consumer dedupe',
    ),
    eventLog: flag.value(
      '--event-log <n>',
      'how many webhook events to keep for `svc webhook replay`, the newest (default 1000)',
    ),
    cardIssuance: flag.withDefault(
      '--card-issuance <outcome>',
      'how the issuer decides new cards: accept or reject',
      'accept',
    ),
    timeScale: flag.withDefault(
      '--time-scale <factor>',
      'run the emulator clock this many times faster (60: the 6-minute delays take 6 s)',
      '1',
    ),
    transactionLimits: flag.value(
      '--transaction-limits <list>',
      'single-transaction maximum per currency in minor units, e.g. USD=500000,EUR=100000 (default 10000000 USD and EUR, 200000000 MXN)',
    ),
    detach: flag.boolean(
      '--detach',
      'run in the background: return once it is ready (the same ready line), for `svc emulator stop` to stop',
    ),
    /** false with --no-profile: leave the store alone. */
    profile: flag.negatable('--no-profile', 'do not write the `local` profile or make it current'),
  },
  help: `
The \`local\` profile is current while the emulator runs; the previous one is current
again when it stops.

With --detach it runs in the background, one per config folder (SERVICE_CLI_CONFIG_DIR):
its pid file and log are emulator.pid and emulator.log there.

Examples:
  $ svc emulator start
  $ svc --json emulator start --port 0 --processing-retries 2 --state emulator.json
  $ svc --json emulator start --detach --port 0 --jq .baseUrl`,
});

export const stop = defineVerb({
  name: 'stop',
  description: 'stop the emulator started with --detach for this config folder',
  help: `
Waits until it has stopped (its --state file saved, the previous profile current again).
Nothing running is not an error, so a CI cleanup step can always run it.

Examples:
  $ svc emulator stop`,
});

export const status = defineVerb({
  name: 'status',
  description: 'say whether an emulator started with --detach runs for this config folder, and where',
  help: `
Exit code 0 when one runs, 1 when none does.

Examples:
  $ svc emulator status
  $ svc emulator status --jq .baseUrl`,
});

export const emulatorVerbs = [
  verb(start, () => import('./start.js')),
  verb(stop, () => import('./stop.js')),
  verb(status, () => import('./status.js')),
];
