/**
 * The shape of a durable table's records, checked when the --state file is loaded, so a
 * hand-edited record of the wrong shape is refused at start (naming its path in the file) instead of
 * being served. A table declares its shape next to its record type; `Shape<T>` makes the compiler
 * insist on every field of T with a kind that fits its type, so a new field cannot be forgotten.
 * Fields the file has beyond the shape are allowed: older versions of a record kept other fields.
 */

type Base<V> = V extends string
  ? 'string'
  : V extends number
    ? 'number'
    : V extends boolean
      ? 'boolean'
      : V extends readonly unknown[]
        ? 'array'
        : V extends object
          ? 'object'
          : 'any';

/** One field's kind: `?` when it may be absent; `any` where the type is a mix (checked by the area). */
type KindOf<V> = undefined extends V ? `${Base<NonNullable<V>>}?` | 'any' : Base<V> | 'any';

export type Shape<T> = { readonly [K in keyof T]-?: KindOf<T[K]> };

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

/** Where a record's field is, as a path into the file: `customers["Customer:…"].balance`. */
const recordPath = (table: string, id: string, field?: string) =>
  `${table}[${JSON.stringify(id)}]${field === undefined ? '' : `.${field}`}`;

/**
 * The first thing wrong with a table's rows as the file holds them (every record is a JSON object
 * whose `id`, when it has one, is its key; the shape's fields have their kinds), as a path and what is wrong,
 * or undefined when every record fits.
 */
export function firstBadRecord(
  table: string,
  rows: unknown,
  shape: Readonly<Record<string, string>> | undefined,
  earlier?: (record: Record<string, unknown>) => boolean,
): { path: string; problem: string } | undefined {
  if (kindOf(rows) !== 'object')
    return { path: table, problem: `must be an object of records, is ${article(kindOf(rows))}` };
  for (const [id, record] of Object.entries(rows as Record<string, unknown>)) {
    if (kindOf(record) !== 'object') {
      return { path: recordPath(table, id), problem: `must be an object, is ${article(kindOf(record))}` };
    }
    const fields = record as Record<string, unknown>;
    if ('id' in fields && fields.id !== id) {
      return { path: recordPath(table, id, 'id'), problem: 'must be the key the record is stored under' };
    }
    // A record of an earlier shape is rewritten by its area's migration when the emulator resumes.
    if (earlier?.(fields)) continue;
    for (const [field, declared] of Object.entries(shape ?? {})) {
      if (declared === 'any') continue;
      const optional = declared.endsWith('?');
      const want = optional ? declared.slice(0, -1) : declared;
      const value = fields[field];
      if (value === undefined) {
        if (optional) continue;
        return { path: recordPath(table, id, field), problem: `is missing (${article(want)} is required)` };
      }
      const found = kindOf(value);
      if (found !== want || (want === 'number' && !Number.isFinite(value))) {
        return { path: recordPath(table, id, field), problem: `must be ${article(want)}, is ${article(found)}` };
      }
    }
  }
  return undefined;
}
