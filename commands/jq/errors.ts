/**
 * The two ways a filter goes wrong. A JqSyntaxError is found compiling (the expression is refused
 * before the command runs: exit 2); a JqRuntimeError is jq's own error on a value (`.a` of a
 * number), which `?`, `//` and `try` catch like jq does, and which otherwise fails the command.
 */
export class JqSyntaxError extends Error {}

export class JqRuntimeError extends Error {}

export const typeName = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/** A value as jq's messages quote it: its type and its JSON, cut short. */
export function described(v: unknown): string {
  const json = JSON.stringify(v);
  return `${typeName(v)} (${json.length > 11 ? `${json.slice(0, 10)}...` : json})`;
}
