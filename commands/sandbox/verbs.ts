/** `svc sandbox …`: the sandbox-only endpoints that move simulated money. */
import { arg, defineVerb, flag, verb } from '../verb.js';

// Flags are optional to commander on purpose: run() checks them, so a missing flag and a bad one
// get the same kind of message and exit 2 whether the verb is called from the shell or the demo.

export const fund = defineVerb({
  name: 'fund',
  description: 'fund an internal account (amount in the smallest currency unit)',
  args: { account: arg.required('<account>', 'InternalAccount:<uuid>') },
  flags: { amount: flag.value('--amount <int>', 'amount in the smallest currency unit, 1 to 100000000000') },
  help: `
Example (1,000.00 in a two-decimal currency):
  $ svc sandbox fund InternalAccount:<uuid> --amount 100000`,
});

export const send = defineVerb({
  name: 'send',
  description: "pay a real-time-funding quote's payment instructions",
  flags: {
    quote: flag.value('--quote <id>', 'Quote:<uuid>'),
    quoteId: flag.value('--quote-id <id>', "alias of --quote (the official CLI's name)"),
    currency: flag.value('--currency <code>', 'currency of the payment, e.g. USD'),
    amount: flag.value('--amount <int>', 'amount in the smallest currency unit (default: what the quote asks)'),
  },
  help: `
--quote-id is the official CLI's name for --quote; either works.

Example:
  $ svc sandbox send --quote Quote:<uuid> --currency USD`,
});

export const umaReceive = defineVerb({
  name: 'uma-receive',
  description:
    'simulate an incoming UMA payment ($success.usd@…, $pending.long.usd@…, $fail.compliance.usd@… steer it)',
  flags: {
    sender: flag.value('--sender <uma>', 'sender UMA address, e.g. $alice@example.com'),
    receiver: flag.value('--receiver <uma>', 'receiving UMA address of a platform user'),
    currency: flag.value('--currency <code>', 'receiving currency, e.g. USD'),
    amount: flag.value('--amount <int>', 'receiving amount in the smallest currency unit'),
  },
  help: `
The receiver must be the UMA address of one of your platform's customers; on the
emulator, the fixture \`svc emulator start\` prints as "UMA address" (umaAddress in --json).

Examples:
  $ svc sandbox uma-receive --sender '$success.usd@sandbox.example.com' \\
      --receiver '<umaAddress>' --currency USD --amount 2500
  $ svc sandbox uma-receive --sender '$fail.compliance.usd@sandbox.example.com' \\
      --receiver '<umaAddress>' --currency USD --amount 2500`,
});

export const sandboxVerbs = [
  verb(fund, () => import('./fund.js')),
  verb(send, () => import('./send.js')),
  verb(umaReceive, () => import('./uma-receive.js')),
];
