/**
 * A profile name typed by the user must name a profile that exists: a typo would otherwise act on
 * an empty profile. The error suggests the closest existing name.
 */
import { UsageError } from '../../src/errors.js';
import type { Store } from '../../src/store/index.js';

/** Edit distance, small inputs only (profile names are at most 64 characters). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The existing name closest to `name`, when close enough to be a likely typo. */
export function closestName(name: string, known: string[]): string | undefined {
  const scored = known.map((k) => ({ k, d: distance(name.toLowerCase(), k.toLowerCase()) })).sort((x, y) => x.d - y.d);
  const best = scored[0];
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.k : undefined;
}

export function unknownProfileError(name: string, known: string[], field: string): UsageError {
  const suggestion = closestName(name, known);
  const list = known.length ? `; profiles: ${[...known].sort().join(', ')}` : '';
  return new UsageError(`No profile named "${name}"${suggestion ? ` (did you mean "${suggestion}"?)` : list}.`, {
    field,
    hint: `Create it with: svc --profile ${name} config set base-url <url>`,
  });
}

export function requireKnownProfile(store: Pick<Store, 'listProfiles'>, name: string, field: string): string {
  const known = Object.keys(store.listProfiles());
  if (!known.includes(name)) throw unknownProfileError(name, known, field);
  return name;
}
