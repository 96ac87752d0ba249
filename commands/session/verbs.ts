/** `svc session …`: list, refresh, revoke and switch auth sessions. */
import { arg, defineVerb, flag, verb } from '../verb.js';

export const list = defineVerb({
  name: 'list',
  description: "list an account's live sessions, marking which keys are held here",
  flags: {
    account: flag.value('--account <id>', 'InternalAccount:<uuid> (default: the account of the active session)'),
  },
  help: `
Examples:
  $ svc session list
  $ svc --json session list --account InternalAccount:<uuid>`,
});

export const refresh = defineVerb({
  name: 'refresh',
  description: 'refresh a session with a fresh key (default: the active session); stores the new key',
  args: { session: arg.optional('[session]', 'Session:<uuid>') },
  flags: {
    legacy: flag.boolean(
      '--legacy',
      'deprecated sealed-key flow: uncompressed key, decrypt encryptedSessionSigningKey',
    ),
  },
  help: `
An expired session cannot be refreshed: svc says so (exit 4) and names the login
command; on a terminal it offers to run it. Any 401 exits 4 with a hint for its
error code.

Examples:
  $ svc session refresh
  $ svc --json session refresh Session:<uuid>`,
});

export const revoke = defineVerb({
  name: 'revoke',
  description: 'revoke a session (signed) and forget its local key; asks first unless --yes',
  args: { session: arg.required('<session>', 'Session:<uuid>') },
  help: `
Without a terminal (CI, --no-input) --yes is required. Revoking a session that
already ended (expired or revoked) succeeds, as the service answers, and forgets
its key.

Examples:
  $ svc session revoke Session:<uuid>
  $ svc --yes session revoke Session:<uuid>`,
});

export const use = defineVerb({
  name: 'use',
  description: "make a session held here the profile's active session",
  args: { session: arg.required('<session>', 'Session:<uuid>') },
  help: `
Example:
  $ svc session use Session:<uuid>`,
});

export const show = defineVerb({
  name: 'show',
  description: 'show the active session and the wallet and customer it signs for (never its private key)',
  help: `
Examples:
  $ svc session show
  $ svc --json session show --jq .expiresAt`,
});

export const prune = defineVerb({
  name: 'prune',
  description:
    'delete the keys held here of sessions that can no longer sign: expired, or no longer live on the service',
  flags: { dryRun: flag.boolean('--dry-run', 'list what would be deleted, delete nothing') },
  help: `
Expired keys are judged locally; the others by asking the service which sessions of
their account are still live (a revoked session, or one from an emulator restarted
without --state, is not). Keys whose profile no longer exists are included.

Examples:
  $ svc session prune --dry-run
  $ svc --json session prune`,
});

export const sessionVerbs = [
  verb(list, () => import('./list.js')),
  verb(refresh, () => import('./refresh.js')),
  verb(revoke, () => import('./revoke.js')),
  verb(use, () => import('./use.js')),
  verb(show, () => import('./show.js')),
  verb(prune, () => import('./prune.js')),
];
