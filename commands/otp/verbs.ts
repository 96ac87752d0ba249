/** `svc otp …`: one-time-password login. */
import { defineVerb, flag, verb } from '../verb.js';

// --code is optional to commander on purpose: run() decides between flag, stdin and prompt, and
// a missing code in CI must be exit 2 naming --code, the same from the shell and from the demo.
export const verify = defineVerb({
  name: 'verify',
  description: 'challenge the credential, enter the code, store the session key and make it active',
  flags: {
    credential: flag.value(
      '--credential <id>',
      'the OTP credential, AuthMethod:<uuid> (if absent, on a terminal, the one the profile names is offered)',
    ),
    code: flag.value(
      '--code <otp>',
      'the six-digit code, or - to read its first line from stdin (prompted on a terminal if absent)',
    ),
  },
  help: `
On a terminal the code is prompted for (masked); a wrong one is retried up to
three times, each with a fresh challenge. In CI, or with --no-input, --code is
required. The sandbox code is 000000. With no --credential, on a terminal, the
credential the profile names is offered (the emulator's \`local\` profile names its fixture's).

Examples:
  $ svc otp verify --credential AuthMethod:<uuid>
  $ svc otp verify --credential AuthMethod:<uuid> --code 000000
  $ printf '%s\\n' "$OTP" | svc --json otp verify --credential AuthMethod:<uuid> --code -`,
});

export const otpVerbs = [verb(verify, () => import('./verify.js'))];
