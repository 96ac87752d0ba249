/** `svc config list`: every profile and its keys, the current one marked; secrets masked. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import type { Profile } from '../../src/store/index.js';
import { CONFIG_KEYS, displayValue } from './keys.js';
import { alignColumns } from '../table.js';

export type ListOptions = OptionsOf<typeof verbs.list>;

/** Config key name → displayed value, set keys only, plus the active session and offered credential (not settable here). */
function shownValues(profile: Profile): Record<string, string> {
  const values: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const v = key.field && displayValue(key, profile[key.field]);
    if (v !== undefined) values[key.name] = v;
  }
  for (const [baseUrl, signer] of Object.entries(profile.otpSigners ?? {})) values[`otp-signer ${baseUrl}`] = signer;
  for (const [baseUrl, signer] of Object.entries(profile.sandboxOtpSigners ?? {}))
    values[`sandbox-otp-signer ${baseUrl}`] = signer;
  if (profile.activeSessionId) values['active-session'] = profile.activeSessionId;
  if (profile.credentialId) values['otp-credential'] = profile.credentialId;
  return values;
}

export async function run(_opts: ListOptions, deps: Deps): Promise<void> {
  const store = await deps.store();
  const current = store.currentProfileName();
  const profiles = store.listProfiles();
  const names = Object.keys(profiles).sort();
  const { ui } = deps;
  const listed = {
    current,
    profiles: names.map((name) => ({ name, current: name === current, values: shownValues(profiles[name]!) })),
  };
  ui.result(listed, () => {
    if (names.length === 0) {
      ui.info('No profiles yet.');
      ui.hint('svc config set base-url <url>, or svc emulator start to write a "local" profile.');
      return;
    }
    for (const { name, values } of listed.profiles) {
      ui.out(`${name === current ? '*' : ' '} ${ui.c.bold(name)}${name === current ? ' (current)' : ''}`);
      const rows = Object.entries(values).map(([k, v]) => [k, v.includes('\n') ? '(PEM key set)' : v]);
      for (const line of alignColumns(rows)) ui.out(`    ${line}`);
    }
    if (!names.includes(current)) ui.info(`The current profile "${current}" has no settings yet.`);
  });
}
