/** The shapes of the store's files, checked as they are read: a hand edit is named, not obeyed. */
import { StoreError } from './errors.js';
import type { JsonObject } from './json-file.js';
import type { Profile, StoredSession } from './types.js';

export interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/** The fields that map a base URL to a signer key. */
const PIN_MAPS = new Set(['otpSigners', 'sandboxOtpSigners']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const STRING_FIELDS = new Set([
  'baseUrl',
  'apiTokenId',
  'apiClientSecret',
  'accessToken',
  'otpSignerPublicKey',
  'webhookPublicKey',
  'activeSessionId',
  'credentialId',
]);

/** Every value of the wrong type in the profiles, as `profiles.<name>.<field>` paths (a hand edit, usually). */
function wrongTypes(profiles: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isObject(profile)) {
      wrong.push(`profiles.${name} (must be an object)`);
      continue;
    }
    for (const [field, value] of Object.entries(profile)) {
      // Fields this version does not know are left alone: a newer version may have written them.
      if (!PIN_MAPS.has(field) && !STRING_FIELDS.has(field)) continue;
      const ok = PIN_MAPS.has(field)
        ? isObject(value) && Object.values(value).every((v) => typeof v === 'string')
        : typeof value === 'string';
      if (!ok)
        wrong.push(`profiles.${name}.${field} (must be ${PIN_MAPS.has(field) ? 'an object of strings' : 'a string'})`);
    }
  }
  return wrong;
}

export function toConfigData(raw: JsonObject, file: string): ConfigData {
  const profiles = raw.profiles ?? {};
  if (!isObject(profiles)) {
    throw new StoreError(file, `The store file ${file} is corrupt: "profiles" must be an object`);
  }
  const wrong = wrongTypes(profiles);
  if (wrong.length > 0) {
    throw new StoreError(file, `The store file ${file} has values of the wrong type: ${wrong.join(', ')}`, {
      hint: `Fix those values in ${file} (or delete the file); the config commands write them with the right type.`,
    });
  }
  const current = typeof raw.currentProfile === 'string' ? raw.currentProfile : undefined;
  return { currentProfile: current, profiles: profiles as Record<string, Profile> };
}

// Shapes only, by regex: the store must not load the curve library (startup cost on every command).
// A key that is cut short or edited by hand is caught here, naming the file, instead of surfacing
// later as a usage error about a private key option the user never passed.
const SESSION_KEY_SHAPES = {
  privateKey: /^[0-9a-fA-F]{64}$/,
  publicKey: /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/,
};

export function toSession(raw: JsonObject, file: string): StoredSession {
  for (const field of ['id', 'privateKey', 'publicKey', 'profile'] as const) {
    if (typeof raw[field] !== 'string') {
      throw new StoreError(file, `The session file ${file} is corrupt: "${field}" is missing`);
    }
  }
  for (const [field, shape] of Object.entries(SESSION_KEY_SHAPES)) {
    if (!shape.test(raw[field] as string)) {
      throw new StoreError(file, `The session file ${file} is corrupt: "${field}" is not a P-256 key in hex`);
    }
  }
  return raw as unknown as StoredSession;
}

/** patch merged over base; a key patched to undefined is removed. */
export function mergeProfile(base: Profile | undefined, patch: Partial<Profile>): Profile {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged as Profile;
}
