/**
 * The command tree as the completion scripts read it (completion-bash.ts, completion-fish.ts): one
 * entry per command that runs, and how the values of a kind are written into a script.
 */
import type { CommandTree } from '../command-tree.js';
import { fixedValues, isStored, type ValueKind } from './completion-values.js';

/** One command of the tree as completion sees it: its path ("session use"), flags, values and arguments. */
export interface Command {
  path: string;
  flags: string[];
  valueFlags: string[];
  choices: Record<string, readonly string[]>;
  completes: CommandTree['globalCompletes'];
  args: number;
}

export function commandsOf(tree: CommandTree): Command[] {
  return tree.nouns.flatMap((n) => [
    {
      path: n.name,
      flags: n.flags,
      valueFlags: n.valueFlags,
      choices: n.choices,
      completes: n.completes,
      args: n.args,
    },
    ...n.verbs.filter((v) => !v.group).map((v) => ({ path: `${n.name} ${v.name}`, ...v })),
  ]);
}

/** The shell words that produce a kind's values: the fixed list, or a call to svc for the stored ones. */
export function valueWords(kind: ValueKind, call: (kind: string) => string): string {
  return isStored(kind) ? call(kind) : fixedValues(kind).join(' ');
}
