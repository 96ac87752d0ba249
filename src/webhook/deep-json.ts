/**
 * JSON text of a value parsed from JSON, however deeply nested. JSON.parse takes a body nested
 * thousands of levels deep, JSON.stringify then overflows the stack on it (a signed delivery
 * 6,000 levels deep would be acknowledged and never shown). Any body that verifies must
 * render, so this walks the value with its own stack. Same output as JSON.stringify for what
 * JSON.parse makes (objects, arrays, strings, numbers, booleans, null; undefined members skipped).
 */
type Frame =
  | { kind: 'array'; items: unknown[]; i: number }
  | { kind: 'object'; entries: [string, unknown][]; i: number };

export function deepJson(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  let next: unknown = value;
  let pending = true;
  for (;;) {
    if (pending) {
      pending = false;
      if (Array.isArray(next)) {
        out.push('[');
        stack.push({ kind: 'array', items: next, i: 0 });
      } else if (next !== null && typeof next === 'object') {
        out.push('{');
        const entries = Object.entries(next).filter(([, v]) => v !== undefined && typeof v !== 'function');
        stack.push({ kind: 'object', entries, i: 0 });
      } else out.push(next === undefined ? 'null' : JSON.stringify(next));
    }
    const top = stack.at(-1);
    if (!top) return out.join('');
    if (top.kind === 'array') {
      if (top.i === top.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (top.i > 0) out.push(',');
      next = top.items[top.i++];
    } else {
      if (top.i === top.entries.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const [key, member] = top.entries[top.i++]!;
      out.push(`${top.i > 1 ? ',' : ''}${JSON.stringify(key)}:`);
      next = member;
    }
    pending = true;
  }
}
