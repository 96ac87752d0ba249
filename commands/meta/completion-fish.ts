/**
 * `svc completion fish`: one `complete` line per noun, verb and flag. A flag that takes a value is
 * `-x` (a value, never a file name) with its choices or values, or `-r -F` (file names) for a file
 * flag; a switch is just its name.
 */
import type { CommandTree } from '../command-tree.js';
import type { Completes } from '../verb.js';
import { valueWords, type Command } from './completion-commands.js';
import { POSITIONAL_VALUES } from './completion-values.js';

const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** What follows `-l <flag>` for a flag that takes a value. */
function valueArgs(choices: readonly string[] | undefined, kind: Completes | undefined): string {
  if (choices) return ` -x -a ${fishQuote(choices.join(' '))}`;
  if (kind === 'files') return ' -r -F';
  return kind ? ` -x -a ${fishQuote(valueWords(kind, call))}` : ' -x';
}

const call = (kind: string) => `(svc completion --values ${kind} 2>/dev/null)`;

export function fishScript(tree: CommandTree): string {
  const nounNames = tree.nouns.map((n) => n.name).join(' ');
  const lines = ['# svc completion for fish (svc completion fish)', 'complete -c svc -f'];
  for (const flag of tree.globalFlags) {
    const takes = tree.globalValueFlags.includes(flag);
    lines.push(`complete -c svc -l ${flag.slice(2)}${takes ? valueArgs(undefined, tree.globalCompletes[flag]) : ''}`);
  }
  const flagLine = (condition: string, flag: string, of: Pick<Command, 'valueFlags' | 'choices' | 'completes'>) =>
    `complete -c svc -n "${condition}" -l ${flag.slice(2)}${of.valueFlags.includes(flag) ? valueArgs(of.choices[flag], of.completes[flag]) : ''}`;
  for (const n of tree.nouns) {
    lines.push(
      `complete -c svc -n "not __fish_seen_subcommand_from ${nounNames}" -a ${n.name} -d ${fishQuote(n.description)}`,
    );
    const own = `__fish_seen_subcommand_from ${n.name}`;
    if (n.verbs.length === 0) for (const flag of n.flags) lines.push(flagLine(own, flag, n));
    const words = n.verbs.filter((x) => !x.name.includes(' ')).map((x) => x.name);
    for (const v of n.verbs) {
      // `credentials list`: completed after the group's word; its flags after the verb's.
      const [first, last = first] = v.name.split(' ') as [string, string?];
      const seen = `${own}; and __fish_seen_subcommand_from ${first}`;
      if (!v.name.includes(' '))
        lines.push(
          `complete -c svc -n "${own}; and not __fish_seen_subcommand_from ${words.join(' ')}" -a ${v.name} -d ${fishQuote(v.description)}`,
        );
      else lines.push(`complete -c svc -n "${seen}" -a ${last} -d ${fishQuote(v.description)}`);
      if (v.group) continue;
      const condition = `${seen}${last !== first ? `; and __fish_seen_subcommand_from ${last}` : ''}`;
      for (const flag of v.flags) lines.push(flagLine(condition, flag, v));
    }
  }
  for (const [path, kind] of Object.entries(POSITIONAL_VALUES)) {
    const condition = path
      .split(' ')
      .map((word) => `__fish_seen_subcommand_from ${word}`)
      .join('; and ');
    lines.push(`complete -c svc -n "${condition}" -a ${fishQuote(valueWords(kind, call))}`);
  }
  return lines.join('\n') + '\n';
}
