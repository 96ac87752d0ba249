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
    /** false with --no-profile: leave the store alone. */
    profile: flag.negatable('--no-profile', 'do not write the `local` profile or make it current'),
  },
  help: `
The \`local\` profile is current while the emulator runs; the previous one is current
again when it stops.

Examples:
  $ svc emulator start
  $ svc --json emulator start --port 0 --processing-retries 2 --state emulator.json`,
});

export const emulatorVerbs = [verb(start, () => import('./start.js'))];
