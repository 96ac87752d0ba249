/** `svc login …`: a session from any credential type. */
import { defineVerb, flag, verb } from '../verb.js';
import { tokenFlags } from '../oauth-flags.js';
import { verify as otpVerify } from '../otp/verbs.js';

export const otp = defineVerb({
  ...otpVerify,
  name: 'otp',
  description: 'email or SMS one-time password login (same as svc otp verify)',
  help: otpVerify.help?.replace(/svc( --json)? otp verify/g, 'svc$1 login otp'),
});

export const oauth = defineVerb({
  name: 'oauth',
  description: 'OAuth login: a client key, its nonce in the OIDC token, the key held as the session key',
  flags: {
    credential: flag.value('--credential <id>', 'the OAUTH credential, AuthMethod:<uuid>'),
    nonce: flag.boolean('--nonce', 'make and keep the client key, print the nonce the token must carry, and stop'),
    legacy: flag.boolean(
      '--legacy',
      'deprecated sealed-key flow: an uncompressed client key, decrypt encryptedSessionSigningKey',
    ),
    ...tokenFlags,
  },
  help: `
The token must carry nonce = SHA-256 hex of this login's client key, so the key
comes first: run with --nonce, have the identity provider issue a token with that
nonce, then run again with --token (the kept key is used and then forgotten). On a
terminal without --token, svc prints the nonce and asks for the token. Against a
sandbox, --sandbox-token does all of it in one step.

The client key (compressed) becomes the session key; with --legacy it is
uncompressed and the service seals a session key to it instead. --legacy counts
where the key is made: with --nonce, --sandbox-token, or a --token with no kept key.

Examples:
  $ svc login oauth --credential AuthMethod:<uuid> --sandbox-token
  $ svc login oauth --credential AuthMethod:<uuid> --nonce
  $ get-id-token --nonce "$NONCE" | svc login oauth --credential AuthMethod:<uuid> --token -`,
});

export const passkey = defineVerb({
  name: 'passkey',
  description: 'passkey login with a software passkey held here (a real WebAuthn assertion)',
  flags: {
    credential: flag.value(
      '--credential <id>',
      'the PASSKEY credential, AuthMethod:<uuid> (default: the only one held for this profile)',
    ),
  },
  help: `
The passkey is one registered here with svc credentials add passkey --software.

Example:
  $ svc login passkey --credential AuthMethod:<uuid>`,
});

export const loginVerbs = [
  verb(otp, () => import('./otp.js')),
  verb(oauth, () => import('./oauth.js')),
  verb(passkey, () => import('./passkey.js')),
];
