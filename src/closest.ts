/**
 * "Did you mean …?" for names the user typed (profiles, webhook event types): the candidate with
 * the fewest edits, the first such on a tie, offered only when close enough to be a likely typo.
 */

/** Levenshtein distance; small inputs only (names of at most a few dozen characters). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `typed` when at most `maxEdits` away. `key` says what is compared
 * (e.g. a lower-cased form); the candidate itself is returned.
 */
export function closest(
  typed: string,
  candidates: readonly string[],
  maxEdits: number,
  key: (s: string) => string = (s) => s,
): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(key(typed), key(candidate));
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= maxEdits ? best.candidate : undefined;
}
