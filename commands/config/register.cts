/** `svc config …`: profiles in the local store. Each verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';
import { CONFIG_KEY_NAMES } from './key-names.cjs';

/** Adds the `config` verbs to the `config` command that commands/program.cts created. */
export function registerConfig(config: Command): void {

  config
    .command('set')
    .description(`set a key of the profile (--profile, else the current one); keys: ${CONFIG_KEY_NAMES.join(', ')}`)
    .argument('<key>', 'config key')
    .argument('<value>', 'the value; "-" reads it from a prompt or stdin (use it for secrets); @file for webhook-public-key')
    .addHelpText('after', `
Examples:
  $ svc --profile prod config set base-url https://api.example.com
  $ printf %s "$SECRET" | svc --profile prod config set api-client-secret -
  $ svc config set webhook-public-key @webhook.pem`)
    .action(lazyAction(() => import('./set.js'), ([key, value]) => ({ key, value })));

  config
    .command('get')
    .description('print a key of the profile (secrets masked); exit 1 when unset')
    .argument('<key>', 'config key')
    .action(lazyAction(() => import('./get.js'), ([key]) => ({ key })));

  config
    .command('list')
    .description('list profiles, marking the current one (secrets masked)')
    .action(lazyAction(() => import('./list.js'), () => ({})));

  config
    .command('use')
    .description('make a profile the current one')
    .argument('<profile>', 'profile name')
    .action(lazyAction(() => import('./use.js'), ([profile]) => ({ profile })));
}
