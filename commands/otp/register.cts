/** `svc otp …`: one-time-password login. Declares flags only; the verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Adds the `otp` verbs to the `otp` command that commands/program.cts created. */
export function registerOtp(otp: Command): void {

  // --code is optional to commander on purpose: run() decides between flag, stdin and prompt, and
  // a missing code in CI must be exit 2 naming --code, the same from the shell and from the demo.
  otp
    .command('verify')
    .description('challenge the credential, enter the code, store the session key and make it active')
    .option('--credential <id>', 'the OTP credential, AuthMethod:<uuid>')
    .option('--code <otp>', 'the six-digit code, or - to read its first line from stdin (prompted on a terminal if absent)')
    .addHelpText(
      'after',
      `
On a terminal the code is prompted for (masked); a wrong one is retried up to
three times, each with a fresh challenge. In CI, or with --no-input, --code is
required. The sandbox code is 000000.

Examples:
  $ svc otp verify --credential AuthMethod:<uuid>
  $ svc otp verify --credential AuthMethod:<uuid> --code 000000
  $ printf '%s\\n' "$OTP" | svc --json otp verify --credential AuthMethod:<uuid> --code -`,
    )
    .action(
      lazyAction(() => import('./verify.js'), (_a, o) => ({
        credential: o.credential as string | undefined,
        code: o.code as string | undefined,
      })),
    );
}
