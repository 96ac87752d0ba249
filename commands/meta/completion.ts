/**
 * `svc completion bash|zsh|fish`: a completion script generated from the command tree itself, so
 * a new verb or flag completes without anyone editing a script. Nouns, then verbs, then the verb's
 * flags and the global flags; where a value goes (after `--profile`, or `svc session use `), the
 * values (completion-values.ts) and never a flag. `--values <kind>` prints the stored ones for the scripts.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../../src/errors.js';
import type { CommandTree } from '../command-tree.js';
import {
  FLAG_VALUES,
  fixedValues,
  isStored,
  POSITIONAL_VALUES,
  storedValues,
  type ValueKind,
} from './completion-values.js';

export type CompletionOptions = OptionsOf<typeof verbs.completion>;

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** One command of the tree as completion sees it: its path ("session use"), flags, value flags and arguments. */
interface Command {
  path: string;
  flags: string[];
  valueFlags: string[];
  choices: Record<string, readonly string[]>;
  args: number;
}

function commands(tree: CommandTree): Command[] {
  return tree.nouns.flatMap((n) => [
    { path: n.name, flags: n.flags, valueFlags: n.valueFlags, choices: n.choices, args: n.args },
    ...n.verbs.filter((v) => !v.group).map((v) => ({ path: `${n.name} ${v.name}`, ...v })),
  ]);
}

/** The shell words that produce a kind's values: the fixed list, or a call to svc for the stored ones. */
function valueWords(kind: ValueKind, call: (kind: string) => string): string {
  return isStored(kind) ? call(kind) : fixedValues(kind).join(' ');
}

/** bash: paths are joined with ':' ("session:use"); zsh loads the same function through bashcompinit. */
function bash(tree: CommandTree): string {
  const key = (path: string) => path.replace(/ /g, ':');
  const all = commands(tree);
  const call = (kind: string) => `$(svc completion --values ${kind} 2>/dev/null)`;
  const paths = [
    ...all.map((c) => key(c.path)),
    ...tree.nouns.flatMap((n) => n.verbs.filter((v) => v.group).map((v) => `${n.name}:${v.name}`)),
  ];
  const subwords = (path: string) => {
    const depth = path === '' ? 0 : path.split(':').length;
    const below = paths.filter((p) => p.startsWith(path === '' ? '' : `${path}:`) && p.split(':').length === depth + 1);
    return below.map((p) => p.split(':').pop()).join(' ');
  };
  const valueFlagCases = all
    .filter((c) => c.valueFlags.length)
    .map((c) => `    ${c.valueFlags.map((f) => `"${key(c.path)} ${f}"`).join('|')}) return 0 ;;`);
  const flagValues = Object.entries(FLAG_VALUES).map(
    ([flag, kind]) => `      ${flag}) words="${valueWords(kind, call)}" ;;`,
  );
  const choiceCases = all.flatMap((c) =>
    Object.entries(c.choices).map(([flag, values]) => `    "${key(c.path)} ${flag}") words="${values.join(' ')}" ;;`),
  );
  const positional = Object.entries(POSITIONAL_VALUES).map(
    ([path, kind]) => `    ${key(path)}) [ "$positional" -eq 0 ] && words="${valueWords(kind, call)}" ;;`,
  );
  const groups = [...new Set(paths.filter((p) => !all.some((c) => key(c.path) === p)))];
  const flagWords = all.map((c) => `    ${key(c.path)}) words="${c.flags.join(' ')}" ;;`);
  const argCounts = all.filter((c) => c.args > 0).map((c) => `    ${key(c.path)}) args=${c.args} ;;`);
  return `# svc completion for bash (svc completion bash)
# Ids such as Session:… hold a colon: keep it inside the word, as npm's completion does with = and @.
COMP_WORDBREAKS=\${COMP_WORDBREAKS//:/}

_svc_is_path() {
  case "$1" in
    ${paths.join('|')}) return 0 ;;
  esac
  return 1
}

# Whether flag $2 of command $1 takes a value.
_svc_takes_value() {
  case "$2" in
    ${tree.globalValueFlags.join('|')}) return 0 ;;
  esac
  case "$1 $2" in
${valueFlagCases.join('\n')}
  esac
  return 1
}

_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i words="" positional=0 args=0
  [ "$COMP_CWORD" -gt 0 ] && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      -*=*) ;;
      -*) if _svc_takes_value "$path" "$word"; then ((i++)); fi ;;
      *) if [ "$positional" -eq 0 ] && _svc_is_path "\${path:+$path:}$word"; then path="\${path:+$path:}$word"; else ((positional++)); fi ;;
    esac
  done
  # A value goes here: its values, or (for a file, a URL, an amount) the shell's default.
  if [ -n "$prev" ] && [[ "$prev" == -* ]] && _svc_takes_value "$path" "$prev"; then
    case "$path $prev" in
${choiceCases.join('\n')}
    esac
    [ -z "$words" ] && case "$prev" in
${flagValues.join('\n')}
      *) COMPREPLY=(); return ;;
    esac
    # Lists are comma-separated (--events A,B): complete the item after the last comma.
    local head=""
    [[ "$cur" == *,* ]] && head="\${cur%,*},"
    COMPREPLY=($(compgen -P "$head" -W "$words" -- "\${cur##*,}"))
    return
  fi
  if [[ "$cur" == -* ]]; then
    case "$path" in
${flagWords.join('\n')}
    esac
    COMPREPLY=($(compgen -W "$words ${tree.globalFlags.join(' ')}" -- "$cur"))
    return
  fi
  case "$path" in
    "") words="${subwords('')}" ;;
${groups.map((g) => `    ${g}) words="${subwords(g)}" ;;`).join('\n')}
${tree.nouns
  .filter((n) => n.verbs.length)
  .map((n) => `    ${n.name}) words="${subwords(n.name)}" ;;`)
  .join('\n')}
${positional.join('\n')}
  esac
  case "$path" in
${argCounts.join('\n')}
  esac
  # Where an argument still goes, only its values (or files); else the command's flags.
  if [ -z "$words" ] && [ "$positional" -ge "$args" ]; then
    case "$path" in
${flagWords.join('\n')}
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _svc svc
`;
}

function zsh(tree: CommandTree): string {
  return `#compdef svc
# svc completion for zsh (svc completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(tree).split('\n').slice(1).join('\n')}`;
}

const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** fish: `-r` marks a flag that takes a value, so fish completes its value (never a flag) after it. */
function fish(tree: CommandTree): string {
  const call = (kind: string) => `(svc completion --values ${kind} 2>/dev/null)`;
  const valueArgs = (flag: string, choices?: readonly string[]) => {
    const kind = FLAG_VALUES[flag];
    if (choices) return ` -f -a ${fishQuote(choices.join(' '))}`;
    return kind ? ` -f -a ${fishQuote(valueWords(kind, call))}` : '';
  };
  const nounNames = tree.nouns.map((n) => n.name).join(' ');
  const lines = ['# svc completion for fish (svc completion fish)', 'complete -c svc -f'];
  for (const flag of tree.globalFlags) {
    const takes = tree.globalValueFlags.includes(flag);
    lines.push(`complete -c svc -l ${flag.slice(2)}${takes ? ` -r${valueArgs(flag)}` : ''}`);
  }
  const flagLine = (condition: string, flag: string, of: Pick<Command, 'valueFlags' | 'choices'>) =>
    `complete -c svc -n "${condition}" -l ${flag.slice(2)}${of.valueFlags.includes(flag) ? ` -r${valueArgs(flag, of.choices[flag])}` : ''}`;
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

export async function run(opts: CompletionOptions, deps: Deps): Promise<void> {
  const { ui } = deps;
  if (opts.values !== undefined) {
    for (const value of await storedValues(opts.values, deps)) ui.out(value);
    return;
  }
  const shell = opts.shell?.toLowerCase();
  if (shell === undefined || !(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(
      shell === undefined
        ? `Name the shell: ${SHELLS.join(', ')}.`
        : `Unknown shell ${JSON.stringify(opts.shell)}: use one of ${SHELLS.join(', ')}.`,
      { input: '<shell>' },
    );
  }
  const tree = await deps.commands();
  const script = shell === 'bash' ? bash(tree) : shell === 'zsh' ? zsh(tree) : fish(tree);
  ui.out(script.trimEnd());
}
