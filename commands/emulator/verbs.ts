/** `svc emulator …`: the embedded sandbox. */
import { defineVerb, flag, verb } from '../verb.js';
import { emulatorFlags } from './option-flags.js';

export const start = defineVerb({
  name: 'start',
  description: 'run the emulator until Ctrl-C; prints its base URL, credentials, keys and fixtures (--json: one line)',
  flags: {
    ...emulatorFlags(),
    detach: flag.boolean(
      '--detach',
      'run in the background: return once it is ready (the same ready line), for `svc emulator stop` to stop',
    ),
    /** false with --no-profile: leave the store alone. */
    profile: flag.negatable('--no-profile', 'do not write the `local` profile or make it current'),
  },
  serves: true,
  help: `
The \`local\` profile is current while the emulator runs; the previous one is current
again when it stops.

One emulator owns a config folder (SERVICE_CLI_CONFIG_DIR) and its \`local\` profile,
whether started with --detach or in the foreground: a second start is refused, naming
it; \`svc emulator status\` and \`stop\` find it (pid file emulator.pid; with --detach its
log is emulator.log there). With --no-profile in the foreground nothing is claimed, so
test workers and parallel CI jobs can run any number side by side.

Examples:
  $ svc emulator start
  $ svc --json emulator start --port 0 --processing-retries 2 --state emulator.json
  $ svc --json emulator start --detach --port 0 --jq .baseUrl`,
});

export const stop = defineVerb({
  name: 'stop',
  description: 'stop the emulator of this config folder (started with --detach, or in the foreground)',
  help: `
Waits until it has stopped (its --state file saved, the previous profile current again).
Nothing running is not an error, so a CI cleanup step can always run it.

Examples:
  $ svc emulator stop`,
});

export const status = defineVerb({
  name: 'status',
  description: 'say whether an emulator runs for this config folder (--detach or foreground), and where',
  help: `
Exit code 0 when one runs, 1 when none does.

Examples:
  $ svc emulator status
  $ svc emulator status --jq .baseUrl`,
});

export const open = defineVerb({
  name: 'open',
  description: "open the running emulator's dashboard in the browser (prints its URL when none opens)",
  flags: {
    print: flag.boolean('--print', 'print the URL instead of opening a browser'),
  },
  help: `
The dashboard shows the requests the emulator served, its resources, the webhook
deliveries (with Resend) and its clock, live. Its URL carries a token made at each
start; the current profile (\`local\` while the emulator runs) finds the emulator.
SVC_BROWSER (or BROWSER) names the browser command to use.

Examples:
  $ svc emulator open
  $ svc emulator open --print`,
});

export const logs = defineVerb({
  name: 'logs',
  description: 'print the requests the running emulator served (--follow: then each new one, until Ctrl-C)',
  flags: {
    follow: flag.boolean('--follow', 'keep printing requests as they are served, until Ctrl-C'),
    status: flag.value('--status <code>', 'only requests answered with this status or class: 404, 4xx'),
    path: flag.value('--path <glob>', 'only requests whose path matches; * matches any characters'),
  },
  help: `
Oldest first, one line each: time, method, status, path, duration, the credential
used, and the Request-Id of a signed two-step flow. --json prints one JSON object a
line. Secrets are never shown. The current profile (\`local\` while the emulator
runs) finds the emulator.

Examples:
  $ svc emulator logs
  $ svc emulator logs --follow --status 4xx
  $ svc --json emulator logs --path "/2025-10-13/customers*"`,
});

export const emulatorVerbs = [
  verb(start, () => import('./start.js')),
  verb(stop, () => import('./stop.js')),
  verb(status, () => import('./status.js')),
  verb(open, () => import('./open.js')),
  verb(logs, () => import('./logs.js')),
];
