/** `svc demo`: the whole mission against an in-process emulator (a noun that is itself the command). */
import { defineVerb, flag, verb } from '../verb.js';

export const demo = defineVerb({
  name: 'demo',
  description:
    'walk the whole flow once (OTP login, sessions, sandbox money, card webhooks, reveal) on an in-process emulator',
  flags: {
    interactive: flag.boolean('--interactive', 'type the OTP code at a prompt instead of having 000000 entered'),
    keep: flag.boolean(
      '--keep',
      'use your real config (profile "local" made current) and keep the emulator running until Ctrl-C',
    ),
  },
  serves: true,
  help: `
Needs no account, no configuration and no terminal; it talks only to 127.0.0.1.

Examples:
  $ svc demo
  $ svc demo --interactive`,
});

export const demoVerb = verb(demo, () => import('./run.js'));
