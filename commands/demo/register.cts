/** `svc demo`: the whole mission against an in-process emulator. Loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('walk the whole flow once (OTP login, sessions, sandbox money, card webhooks, reveal) against an in-process emulator')
    .option('--interactive', 'type the OTP code at a prompt instead of having 000000 entered')
    .option('--keep', 'use your real config (profile "local" made current) and keep the emulator running until Ctrl-C')
    .action(lazyAction(() => import('./run.js'), (_a, o) => ({ interactive: Boolean(o.interactive), keep: Boolean(o.keep) })));
}
