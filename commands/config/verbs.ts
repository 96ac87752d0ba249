/** `svc config …`: profiles in the local store. */
import { arg, defineVerb, verb } from '../verb.js';
import { CONFIG_KEY_NAMES } from './key-names.js';

export const set = defineVerb({
  name: 'set',
  description: `set a key of the profile (--profile, else the current one); keys: ${CONFIG_KEY_NAMES.join(', ')}`,
  args: {
    key: arg.required('<key>', 'config key'),
    value: arg.required(
      '<value>',
      'the value; "-" reads it from a prompt or stdin (use it for secrets); @file for webhook-public-key',
    ),
  },
  help: `
Examples:
  $ svc --profile prod config set base-url https://api.example.com
  $ printf %s "$SECRET" | svc --profile prod config set api-client-secret -
  $ svc config set webhook-public-key @webhook.pem`,
});

export const get = defineVerb({
  name: 'get',
  description: 'print a key of the profile (secrets masked); exit 1 when unset',
  args: { key: arg.required('<key>', 'config key') },
});

export const list = defineVerb({ name: 'list', description: 'list profiles, marking the current one (secrets masked)' });

export const use = defineVerb({
  name: 'use',
  description: 'make a profile the current one',
  args: { profile: arg.required('<profile>', 'profile name') },
});

export const configVerbs = [
  verb(set, () => import('./set.js')),
  verb(get, () => import('./get.js')),
  verb(list, () => import('./list.js')),
  verb(use, () => import('./use.js')),
];
