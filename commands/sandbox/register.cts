/** `svc sandbox …`: the sandbox-only endpoints that move simulated money. Each verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Adds the `sandbox` verbs to the `sandbox` command that commands/program.cts created. */
export function registerSandbox(sandbox: Command): void {

  // Flags are optional to commander on purpose: run() checks them, so a missing flag and a bad one
  // get the same kind of message and exit 2 whether the verb is called from the shell or the demo.
  sandbox
    .command('fund')
    .description('fund an internal account (amount in the smallest currency unit)')
    .argument('<account>', 'InternalAccount:<uuid>')
    .option('--amount <int>', 'amount in the smallest currency unit, 1 to 100000000000')
    .addHelpText('after', `
Example (1,000.00 in a two-decimal currency):
  $ svc sandbox fund InternalAccount:<uuid> --amount 100000`)
    .action(lazyAction(() => import('./fund.js'), ([account], o) => ({ account, amount: o.amount as string | undefined })));

  sandbox
    .command('send')
    .description("pay a real-time-funding quote's payment instructions")
    .option('--quote <id>', 'Quote:<uuid>')
    .option('--currency <code>', 'currency of the payment, e.g. USD')
    .option('--amount <int>', 'amount in the smallest currency unit (default: what the quote asks)')
    .addHelpText('after', `
Example:
  $ svc sandbox send --quote Quote:<uuid> --currency USD`)
    .action(
      lazyAction(() => import('./send.js'), (_a, o) => ({
        quote: o.quote as string | undefined,
        currency: o.currency as string | undefined,
        amount: o.amount as string | undefined,
      })),
    );

  sandbox
    .command('uma-receive')
    .description('simulate an incoming UMA payment ($success.usd@…, $pending.long.usd@…, $fail.compliance.usd@… steer it)')
    .option('--sender <uma>', 'sender UMA address, e.g. $alice@example.com')
    .option('--receiver <uma>', 'receiving UMA address of a platform user')
    .option('--currency <code>', 'receiving currency, e.g. USD')
    .option('--amount <int>', 'receiving amount in the smallest currency unit')
    .addHelpText('after', `
Examples:
  $ svc sandbox uma-receive --sender '$success.usd@sandbox.example.com' \\
      --receiver '$ada@example.com' --currency USD --amount 2500
  $ svc sandbox uma-receive --sender '$fail.compliance.usd@sandbox.example.com' \\
      --receiver '$ada@example.com' --currency USD --amount 2500`)
    .action(
      lazyAction(() => import('./uma-receive.js'), (_a, o) => ({
        sender: o.sender as string | undefined,
        receiver: o.receiver as string | undefined,
        currency: o.currency as string | undefined,
        amount: o.amount as string | undefined,
      })),
    );
}
