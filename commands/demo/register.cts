/** `svc demo`: the whole mission against an in-process emulator. Loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Gives the `demo` command that commands/program.cts created its flags and action. */
export function registerDemo(demo: Command): void {
  demo
    .option('--interactive', 'type the OTP code at a prompt instead of having 000000 entered')
    .option('--keep', 'use your real config (profile "local" made current) and keep the emulator running until Ctrl-C')
    .addHelpText('after', `
Needs no account, no configuration and no terminal; it talks only to 127.0.0.1.

Examples:
  $ svc demo
  $ svc demo --interactive`)
    .action(lazyAction(() => import('./run.js'), (_a, o) => ({ interactive: Boolean(o.interactive), keep: Boolean(o.keep) })));
}
