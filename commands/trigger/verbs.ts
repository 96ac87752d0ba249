/** `svc trigger <scenario>` / `svc trigger --list`: sandbox magic values as one-line scenarios (a noun that is itself the command). */
import { arg, defineVerb, flag, verb } from '../verb.js';

export const trigger = defineVerb({
  name: 'trigger',
  description: 'build a sandbox magic-value scenario through the API and report what the service did',
  args: { scenario: arg.optional('[scenario]', 'a scenario name from --list, like kyc.pending or card.frozen') },
  flags: {
    list: flag.boolean('--list', 'list every scenario: its magic value and what the spec says happens'),
    wait: flag.boolean('--wait', 'follow delayed outcomes to their end (30 s, 6 min, returned payments)'),
    events: flag.boolean('--events', "report the webhook events the run caused (from the emulator's event log)"),
    customer: flag.value(
      '--customer <id>',
      'run on your Customer:<uuid> instead of a new one (where the scenario allows)',
    ),
    account: flag.value('--account <id>', 'use your InternalAccount:<uuid> (where the scenario allows)'),
    externalAccount: flag.value(
      '--external-account <id>',
      'use your ExternalAccount:<uuid> (where the scenario allows)',
    ),
    credential: flag.value(
      '--credential <id>',
      "auth.*: the AuthMethod:<uuid> to log in with (default: the active session's)",
    ),
    set: flag.repeatable(
      '--set <path=value>',
      'set a field of what the scenario sends, like customer.birthDate=1985-01-02 (repeatable)',
    ),
  },
  help: `
--customer, --account, --external-account and --set are checked before anything is
sent: an option the scenario cannot use, an unknown path, a wrong type or a value
that would change the magic row is refused (exit 2) with the reason; none is ever
ignored. Runs only against a sandbox: a production token is refused (the service answers 403
to sandbox endpoints) before anything is created. The observed values are the
service's answers; the summary says where they differ from the spec's table.

With --json: --list prints [{"name","area","magic":{"field","value"},"expect","runnable"}];
a run prints {"scenario","magic","resources","reused","observed","events"}.

Examples:
  $ svc trigger --list
  $ svc trigger kyc.rejected
  $ svc --json trigger uma.compliance-fail
  $ svc trigger card.frozen --wait --events
  $ svc trigger card-transaction.refunded --wait --events
  $ svc trigger card.closed --customer Customer:<uuid> --wait
  $ svc trigger kyc.rejected --set customer.fullName="Jane Roe 002" --set customer.nationality=GB`,
});

export const triggerVerb = verb(trigger, () => import('./run.js'));
