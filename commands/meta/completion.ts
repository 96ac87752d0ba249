/**
 * `svc completion bash|zsh|fish`: a completion script generated from the command tree itself, so
 * a new verb or flag completes without anyone editing a script. Nouns, then verbs, then the verb's
 * flags and the global flags.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { createUI } from '../ui.js';
import { UsageError } from '../../src/errors.js';
import type { CommandTree } from '../program.js';

export type CompletionOptions = OptionsOf<typeof verbs.completion>;

const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** bash: a case on "noun verb" choosing the words; zsh loads the same function through bashcompinit. */
function bash(tree: CommandTree): string {
  const globals = tree.globalFlags.join(' ');
  const cases = tree.nouns.flatMap((n) => [
    // A grouped verb (`credentials list`) completes after its group's word, not the noun's.
    `    "${n.name}") words="${[...n.verbs.filter((v) => !v.name.includes(' ')).map((v) => v.name), ...n.flags].join(' ')}" ;;`,
    ...n.verbs.map((v) => `    "${n.name} ${v.name}") words="${v.flags.join(' ')}" ;;`),
  ]);
  return `# svc completion for bash (svc completion bash)
_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      --profile|--base-url|--jq|--timeout) ((i++)) ;;
      -*) ;;
      *) path="\${path:+$path }$word" ;;
    esac
  done
  local words
  case "$path" in
    "") words="${tree.nouns.map((n) => n.name).join(' ')}" ;;
${cases.join('\n')}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words ${globals}" -- "$cur"))
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

function fish(tree: CommandTree): string {
  const nounNames = tree.nouns.map((n) => n.name).join(' ');
  const lines = ['# svc completion for fish (svc completion fish)', 'complete -c svc -f'];
  for (const flag of tree.globalFlags) lines.push(`complete -c svc -l ${flag.slice(2)}`);
  for (const n of tree.nouns) {
    lines.push(
      `complete -c svc -n "not __fish_seen_subcommand_from ${nounNames}" -a ${n.name} -d ${fishQuote(n.description)}`,
    );
    const words = n.verbs.filter((x) => !x.name.includes(' ')).map((x) => x.name);
    for (const v of n.verbs) {
      // `credentials list`: completed after the group's word; its flags after the verb's.
      const [first, last = first] = v.name.split(' ') as [string, string?];
      const seen = `__fish_seen_subcommand_from ${n.name}; and __fish_seen_subcommand_from ${first}`;
      if (!v.name.includes(' '))
        lines.push(
          `complete -c svc -n "__fish_seen_subcommand_from ${n.name}; and not __fish_seen_subcommand_from ${words.join(' ')}" -a ${v.name} -d ${fishQuote(v.description)}`,
        );
      else lines.push(`complete -c svc -n "${seen}" -a ${last} -d ${fishQuote(v.description)}`);
      if (v.group) continue;
      for (const flag of v.flags)
        lines.push(
          `complete -c svc -n "${seen}${last !== first ? `; and __fish_seen_subcommand_from ${last}` : ''}" -l ${flag.slice(2)}`,
        );
    }
  }
  return lines.join('\n') + '\n';
}

export async function run(opts: CompletionOptions, deps: Deps): Promise<void> {
  const shell = opts.shell.toLowerCase();
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(`Unknown shell ${JSON.stringify(opts.shell)}: use one of ${SHELLS.join(', ')}.`, {
      field: '<shell>',
    });
  }
  const [{ commandTree }, { OPERATIONS }] = await Promise.all([
    import('../program.js'),
    import('../resources/table.js'),
  ]);
  const tree = commandTree(OPERATIONS);
  const script = shell === 'bash' ? bash(tree) : shell === 'zsh' ? zsh(tree) : fish(tree);
  createUI(deps).out(script.trimEnd());
}
