/**
 * A profile name typed by the user must name a profile that exists: a typo would otherwise act on
 * an empty profile. The error suggests the closest existing name.
 */
import { UsageError } from '../../src/errors.js';
import { closest } from '../../src/closest.js';
import type { Store } from '../../src/store/index.js';

/** The existing name closest to `name`, when close enough to be a likely typo. */
export function closestName(name: string, known: string[]): string | undefined {
  return closest(name, known, Math.max(2, Math.floor(name.length / 3)), (s) => s.toLowerCase());
}

/**
 * `retry` is the command run again with the suggested name (`svc config use local`); without one
 * (a global --profile) the hint names the flag to change.
 */
export function unknownProfileError(
  name: string,
  known: string[],
  field: string,
  retry?: (suggestion: string) => string,
): UsageError {
  const suggestion = closestName(name, known);
  const list = known.length ? `; profiles: ${[...known].sort().join(', ')}` : '';
  return new UsageError(`No profile named "${name}"${suggestion ? ` (did you mean "${suggestion}"?)` : list}.`, {
    input: field,
    // A likely typo is not a profile to create.
    hint: suggestion
      ? `${retry ? `Run ${retry(suggestion)}` : `Use --profile ${suggestion}`}, or svc config list for every profile.`
      : `Create it with: svc --profile ${name} config set base-url <url>`,
  });
}

export function requireKnownProfile(
  store: Pick<Store, 'listProfiles'>,
  name: string,
  field: string,
  retry?: (suggestion: string) => string,
): string {
  const known = Object.keys(store.listProfiles());
  if (!known.includes(name)) throw unknownProfileError(name, known, field, retry);
  return name;
}
