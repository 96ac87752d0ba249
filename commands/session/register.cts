/** `svc session …`: list, refresh, revoke and switch auth sessions. Each verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Adds the `session` verbs to the `session` command that commands/program.cts created. */
export function registerSession(session: Command): void {

  session
    .command('list')
    .description("list an account's live sessions, marking which keys are held here")
    .option('--account <id>', 'InternalAccount:<uuid> (default: the account of the active session)')
    .action(lazyAction(() => import('./list.js'), (_a, o) => ({ account: o.account as string | undefined })));

  session
    .command('refresh')
    .description('refresh a session with a fresh key (default: the active session); stores the new key')
    .argument('[session]', 'Session:<uuid>')
    .option('--legacy', 'deprecated sealed-key flow: uncompressed key, decrypt encryptedSessionSigningKey')
    .addHelpText(
      'after',
      `
An expired session cannot be refreshed: svc says so (exit 4) and names the login
command; on a terminal it offers to run it. Any 401 exits 4 with a hint for its
error code.

Examples:
  $ svc session refresh
  $ svc --json session refresh Session:<uuid>`,
    )
    .action(lazyAction(() => import('./refresh.js'), ([id], o) => ({ session: id, legacy: Boolean(o.legacy) })));

  session
    .command('revoke')
    .description('revoke a session (signed) and forget its local key; asks first unless --yes')
    .argument('<session>', 'Session:<uuid>')
    .addHelpText('after', `
Without a terminal (CI, --no-input) --yes is required.

Examples:
  $ svc session revoke Session:<uuid>
  $ svc --yes session revoke Session:<uuid>`)
    .action(lazyAction(() => import('./revoke.js'), ([id]) => ({ session: id })));

  session
    .command('use')
    .description("make a session held here the profile's active session")
    .argument('<session>', 'Session:<uuid>')
    .action(lazyAction(() => import('./use.js'), ([id]) => ({ session: id })));

  session
    .command('show')
    .description('show the active session (never its private key)')
    .action(lazyAction(() => import('./show.js'), () => ({})));
}
