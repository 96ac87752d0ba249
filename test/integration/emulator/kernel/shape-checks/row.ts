// One shape rule a handler leaves to the schema check, and the builders the area files write rows with.
export interface Row {
  method: string;
  /** With its query, when the rule is a query parameter's. */
  path: string;
  body?: object;
  field: string;
  rule: string;
}

const ZERO = '00000000-0000-0000-0000-000000000000';
/** A well-formed id of the kind, for a path parameter: the schema check runs before any look-up. */
export const id = (kind: string) => encodeURIComponent(`${kind}:${ZERO}`);
export const without = (body: object, name: string) =>
  Object.fromEntries(Object.entries(body).filter(([k]) => k !== name));
export const post = (path: string, body: object, field: string, rule: string): Row => ({
  method: 'POST',
  path,
  body,
  field,
  rule,
});
export const patch = (path: string, body: object, field: string, rule: string): Row => ({
  method: 'PATCH',
  path,
  body,
  field,
  rule,
});
export const get = (path: string, field: string, rule: string): Row => ({
  method: 'GET',
  path,
  field,
  rule,
});
