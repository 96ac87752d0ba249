/** A duration as people type it for the Clock view: `90s`, `6m`, `2h`, `7d` (also `500ms`, `1h30m`). */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+)(ms|s|m|h|d)/gy;

/** Milliseconds, or undefined when the text is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let end = 0;
  for (let m = PART.exec(trimmed); m; m = PART.exec(trimmed)) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    end = PART.lastIndex;
  }
  return end === trimmed.length && Number.isSafeInteger(total) ? total : undefined;
}
