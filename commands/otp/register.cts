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
    .option('--code <otp>', 'the six-digit code, or - to read it from stdin (prompted on a terminal if absent)')
    .action(
      lazyAction(() => import('./verify.js'), (_a, o) => ({
        credential: o.credential as string | undefined,
        code: o.code as string | undefined,
      })),
    );
}
