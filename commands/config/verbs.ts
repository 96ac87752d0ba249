/** `svc config …`: profiles in the local store. */
import { arg, defineVerb, verb } from '../verb.js';
import { CONFIG_KEY_NAMES } from './key-names.js';

export const set = defineVerb({
  name: 'set',
  description: `set a key of the profile (--profile, else the current one); keys: ${CONFIG_KEY_NAMES.join(', ')}`,
  args: {
    key: arg.required('<key>', 'config key'),
    value: arg.text(
      '<value>',
      'the value; "-" reads it from a prompt or stdin (use it for secrets); @file for webhook-public-key',
    ),
  },
  help: `
Setting a key in a profile that does not exist yet creates it.

Examples:
  $ svc --profile prod config set base-url https://api.lightspark.com/grid/2025-10-13
  $ printf %s "$SECRET" | svc --profile prod config set api-client-secret -
  $ svc config set webhook-public-key @webhook.pem`,
});

export const get = defineVerb({
  name: 'get',
  description: 'print a key of the profile (secrets masked); exit 1 when unset',
  args: { key: arg.required('<key>', 'config key') },
  help: `
Examples:
  $ svc config get base-url
  $ svc --profile local config get otp-signer`,
});

export const list = defineVerb({
  name: 'list',
  description: 'list profiles, marking the current one (secrets masked)',
  help: `
Examples:
  $ svc config list
  $ svc --json config list --jq .current`,
});

export const use = defineVerb({
  name: 'use',
  description: 'make a profile the current one',
  args: { profile: arg.required('<profile>', 'profile name') },
  help: `
Example:
  $ svc config use local`,
});

export const unset = defineVerb({
  name: 'unset',
  description:
    'remove a key from the profile; otp-signer, sandbox-otp-signer: the pin for its base URL, so the next login trusts the key it sees',
  args: { key: arg.required('<key>', 'config key') },
  help: `
Examples:
  $ svc config unset otp-signer
  $ svc --profile prod config unset access-token`,
});

export const remove = defineVerb({
  name: 'delete',
  description: 'delete a profile and the session keys held for it; asks first unless --yes',
  args: { profile: arg.required('<profile>', 'profile name') },
  help: `
Examples:
  $ svc config delete staging
  $ svc --yes config delete staging`,
});

export const rename = defineVerb({
  name: 'rename',
  description: 'rename a profile, keeping its settings, session keys and current mark',
  args: { from: arg.required('<profile>', 'profile name'), to: arg.required('<new>', 'new name') },
  help: `
Example:
  $ svc config rename default prod`,
});

export const configVerbs = [
  verb(set, () => import('./set.js')),
  verb(get, () => import('./get.js')),
  verb(list, () => import('./list.js')),
  verb(use, () => import('./use.js')),
  verb(unset, () => import('./unset.js')),
  verb(remove, () => import('./delete.js')),
  verb(rename, () => import('./rename.js')),
];
