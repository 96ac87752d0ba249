/** `svc credentials …`: the login methods of an internal account. */
import { arg, defineVerb, flag, verb } from '../verb.js';
import { tokenFlags } from '../oauth-flags.js';

const account = flag.value('--account <id>', 'InternalAccount:<uuid> (default: the account of the active session)');
const session = flag.value(
  '--session <id>',
  'Session:<uuid> whose key signs (default: the active session)',
  'sessions',
);

export const list = defineVerb({
  name: 'list',
  description: "list an account's credentials, marking software passkeys held here",
  flags: { account },
  help: `
Examples:
  $ svc credentials list
  $ svc --json credentials list --account InternalAccount:<uuid>`,
});

export const add = defineVerb({
  name: 'add',
  description: 'add an email, SMS, OAuth or passkey credential (signed when the account has one)',
  args: { type: arg.required('<type>', 'email, sms, oauth or passkey') },
  flags: {
    account,
    session,
    software: flag.boolean(
      '--software',
      'passkey: register a P-256 software passkey kept in the store (sandbox and CI)',
    ),
    nickname: flag.value('--nickname <name>', "passkey: its label (default: 'svc software passkey')"),
    rpId: flag.withDefault('--rp-id <host>', 'passkey: the relying party id the passkey is bound to', 'localhost'),
    origin: flag.withDefault('--origin <url>', 'passkey: the origin the ceremony reports', 'http://localhost'),
    ...tokenFlags,
  },
  help: `
The first credential of an account is made at once; adding to an account that
has one is approved by a session of that account (the active one, or --session).
Email and SMS nicknames come from the customer's email and phone number; log in
with the new credential through svc login otp.

Examples:
  $ svc credentials add sms
  $ svc credentials add oauth --sandbox-token --email ada@example.com
  $ svc credentials add passkey --software --nickname "CI runner"`,
});

export const remove = defineVerb({
  name: 'remove',
  description: 'remove a credential (signed by a session of another credential); asks first unless --yes',
  args: { credential: arg.required('<credential>', 'AuthMethod:<uuid>') },
  flags: { session },
  help: `
The account's last credential cannot be removed. Its sessions end with it, and a
software passkey held here for it is deleted.

Examples:
  $ svc credentials remove AuthMethod:<uuid>
  $ svc --yes credentials remove AuthMethod:<uuid> --session Session:<uuid>`,
});

export const credentialsVerbs = [
  verb(list, () => import('./list.js')),
  verb(add, () => import('./add.js')),
  verb(remove, () => import('./remove.js')),
];
