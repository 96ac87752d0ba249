/** `svc trigger <scenario>` / `svc trigger --list`: sandbox magic values as one-line scenarios (a noun that is itself the command). */
import { arg, defineVerb, flag, verb } from '../verb.js';

export const trigger = defineVerb({
  name: 'trigger',
  description: "build a sandbox magic-value scenario through the API and report what the service did",
  args: { scenario: arg.optional('[scenario]', 'a scenario name from --list, like kyc.pending or card.frozen') },
  flags: {
    list: flag.boolean('--list', 'list every scenario: its magic value and what the spec says happens'),
    wait: flag.boolean('--wait', 'follow delayed outcomes to their end (30 s, 6 min, returned payments)'),
    events: flag.boolean('--events', 'report the webhook events the run caused (emulator: deliveries are passed on to the endpoint set)'),
  },
  help: `
Runs only against a sandbox: a production token is refused (the service answers 403
to sandbox endpoints) before anything is created. The observed values are the
service's answers; the summary says where they differ from the spec's table.

With --json: --list prints [{"name","area","magic":{"field","value"},"expect","runnable"}];
a run prints {"scenario","magic","resources","observed","events"}.

Examples:
  $ svc trigger --list
  $ svc trigger kyc.rejected
  $ svc --json trigger uma.compliance-fail
  $ svc trigger card.frozen --wait --events`,
});

export const triggerVerb = verb(trigger, () => import('./run.js'));
