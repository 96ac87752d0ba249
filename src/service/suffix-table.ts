/**
 * The spec's sandbox steers outcomes by the last characters of a field ("Sandbox magic values").
 * Each such table is data: the field it reads, the suffix length, one row per magic suffix and the
 * row for every other ending, each with the spec's words. The emulator acts on the outcome; the
 * CLI explains it; the emulator README lists the rows.
 */

export interface SuffixRow<T> {
  /** The suffix this row matches; undefined for the "any other ending" row. */
  suffix?: string;
  outcome: T;
  /** What the spec says happens, in its words. */
  spec: string;
}

export interface SuffixTable<T> {
  /** The spec table this comes from ("Individual KYC", …). */
  name: string;
  /** The field whose ending steers the outcome. */
  field: string;
  length: number;
  rows: readonly SuffixRow<T>[];
  otherwise: SuffixRow<T>;
}

/** The row a value's ending selects. */
export function suffixRow<T>(table: SuffixTable<T>, value: string): SuffixRow<T> {
  const suffix = value.slice(-table.length);
  return table.rows.find((row) => row.suffix === suffix) ?? table.otherwise;
}

/** The outcome a value's ending selects. */
export function bySuffix<T>(table: SuffixTable<T>, value: string): T {
  return suffixRow(table, value).outcome;
}
