/** Checks for profile names and the mapping from session ids to file names. */
import { UsageError } from '../errors.js';

const PROFILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A profile name: letters, digits, '.', '_' or '-' (not first), at most 64; a UsageError naming `field` otherwise. */
export function validateProfileName(name: unknown, field = 'profile'): string {
  if (typeof name !== 'string' || !PROFILE_NAME_RE.test(name)) {
    throw new UsageError(
      `Invalid profile name ${JSON.stringify(name)}: use letters, digits, '.', '_' or '-' (at most 64)`,
      { input: field, reason: 'BAD_PROFILE_NAME' },
    );
  }
  return name;
}

/**
 * `Session:<uuid>` → `Session_3a<uuid>`: letters, digits and '-' stay, every other byte becomes
 * `_<hex>`. Reversible, so two ids never share a file; no '/', '.' or ':' reaches the file system.
 */
export function sessionFileName(id: string): string {
  if (typeof id !== 'string' || id === '' || id.length > 200) {
    throw new UsageError(`Invalid session id ${JSON.stringify(id)}: expected a Session:<uuid> identifier`, {
      input: 'session',
      reason: 'NOT_AN_ID',
    });
  }
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9-]/.test(ch) ? ch : `_${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}
