/**
 * `svc completion bash` and `zsh`: one bash function generated from the command tree; zsh runs the
 * same function through bashcompinit. After a flag that takes a value, the values its spec declares
 * (choices, stored names, event types), file names for a file flag, and nothing for free text: there
 * is no fallback to file names (`complete -o default`) where a file makes no sense.
 */
import type { CommandTree } from '../command-tree.js';
import { commandsOf, valueWords } from './completion-commands.js';
import { POSITIONAL_VALUES } from './completion-values.js';
import type { Completes } from '../verb.js';

/** The shell statement that says what completes after a flag whose spec names a kind. */
const kindIs = (kind: Completes) => `kind=${kind}`;

/** bash: paths are joined with ':' ("session:use"). */
export function bashScript(tree: CommandTree): string {
  const key = (path: string) => path.replace(/ /g, ':');
  const all = commandsOf(tree);
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
  const flagValueCases = all.flatMap((c) => [
    ...Object.entries(c.choices).map(
      ([flag, values]) => `      "${key(c.path)} ${flag}") words="${values.join(' ')}" ;;`,
    ),
    ...Object.entries(c.completes).map(([flag, kind]) => `      "${key(c.path)} ${flag}") ${kindIs(kind)} ;;`),
  ]);
  const globalValueCases = Object.entries(tree.globalCompletes).map(
    ([flag, kind]) => `      ${flag}) ${kindIs(kind)} ;;`,
  );
  const kinds = (['sessions', 'profiles', 'event-types'] as const).map(
    (kind) => `      ${kind}) words="${valueWords(kind, call)}" ;;`,
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
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i words="" kind="" positional=0 args=0
  [ "$COMP_CWORD" -gt 0 ] && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      -*=*) ;;
      -*) if _svc_takes_value "$path" "$word"; then ((i++)); fi ;;
      *) if [ "$positional" -eq 0 ] && _svc_is_path "\${path:+$path:}$word"; then path="\${path:+$path:}$word"; else ((positional++)); fi ;;
    esac
  done
  # A value goes here: the flag's choices or values, file names for a file, nothing for free text.
  if [ -n "$prev" ] && [[ "$prev" == -* ]] && _svc_takes_value "$path" "$prev"; then
    case "$path $prev" in
${flagValueCases.join('\n')}
    esac
    [ -z "$words$kind" ] && case "$prev" in
${globalValueCases.join('\n')}
    esac
    case "$kind" in
      files)
        type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
${kinds.join('\n')}
    esac
    # Lists are comma-separated (--events A,B): complete the item after the last comma. Values are
    # taken in any case, so \`fr\` completes to FROZEN when nothing matches as typed.
    local head="" item="\${cur##*,}"
    [[ "$cur" == *,* ]] && head="\${cur%,*},"
    COMPREPLY=($(compgen -P "$head" -W "$words" -- "$item"))
    [ "\${#COMPREPLY[@]}" -eq 0 ] && COMPREPLY=($(compgen -P "$head" -W "$words" -- "$(printf %s "$item" | tr a-z A-Z)"))
    [ "\${#COMPREPLY[@]}" -eq 0 ] && COMPREPLY=($(compgen -P "$head" -W "$words" -- "$(printf %s "$item" | tr A-Z a-z)"))
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
  # Where an argument still goes, only its values; else the command's flags.
  if [ -z "$words" ] && [ "$positional" -ge "$args" ]; then
    case "$path" in
${flagWords.join('\n')}
    esac
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _svc svc
`;
}

export function zshScript(tree: CommandTree): string {
  return `#compdef svc
# svc completion for zsh (svc completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(tree).split('\n').slice(1).join('\n')}`;
}
