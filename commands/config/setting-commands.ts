/** The config commands that change one setting of a profile, for hints that tell the user how. */
import type { SettingCommands } from '../../src/auth/signer-trust.js';

export function settingCommands(profileName: string): SettingCommands {
  return {
    set: (key, value) => `svc --profile ${profileName} config set ${key} ${value}`,
    unset: (key) => `svc --profile ${profileName} config unset ${key}`,
  };
}
