/**
 * Every noun, verb and flag of svc as data: the tree shell completion is generated from
 * (commands/meta/completion.ts), made from the same noun table (nouns.ts) and verb specs the
 * command root mounts on commander (program.ts), so a new verb or flag completes with no edit here.
 * Completion receives it through its Deps (`deps.commands()`, given by commands/main.ts): a verb
 * module never imports the noun table that loads it.
 */
import { GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS } from './global-flags.js';
import { GROUPS, tableVerbs, type TableVerb } from './resources/verbs.js';
import type { Operation } from './resources/operation.js';
import { longFlag, type Completes, type Flag, type Verb } from './verb.js';
import { NOUNS, type Noun, verbsOf } from './nouns.js';

/** A noun or verb as shell completion sees it. */
interface CompletionEntry {
  name: string;
  description: string;
  flags: string[];
  /** Of those, the flags that take a value (`--profile <name>`): completion offers values after them, never flags. */
  valueFlags: string[];
  /** The values of the flags that take one of a few (`--card-issuance`: accept, reject). */
  choices: Record<string, readonly string[]>;
  /** What the other value flags complete, where their spec says (`--store`: files; `--events`: event types). */
  completes: Record<string, Completes>;
  /** How many positional arguments it takes (for a noun: when the noun is itself the command). */
  args: number;
}

/** Every noun, verb and flag, for shell completion. */
export interface CommandTree {
  globalFlags: string[];
  nouns: (CompletionEntry & {
    /** A group's entry (`credentials`) lists its verbs as flags, and each verb is `credentials list`. */
    verbs: (CompletionEntry & { group?: true })[];
  })[];
  /** Global flags that take a value. */
  globalValueFlags: string[];
  /** What the global value flags complete (`--profile`: profiles). */
  globalCompletes: Record<string, Completes>;
}

/**
 * The command tree; `operations` (commands/resources/table.ts) adds the resource commands. Async:
 * it loads every noun's verb specs, which a command's run loads for its own noun only.
 */
export async function commandTree(operations: readonly Operation[] = []): Promise<CommandTree> {
  const globals = Object.values(GLOBAL_FLAGS).map((f) => longFlag(f.syntax));
  const verbs = await Promise.all(NOUNS.map(verbsOf));
  return {
    // --version and --help are commander's own, declared by the root (program.ts).
    globalFlags: ['--version', ...globals, '--help'],
    globalValueFlags: [...GLOBAL_VALUE_FLAGS],
    globalCompletes: completesOf(Object.values(GLOBAL_FLAGS)),
    nouns: NOUNS.map((noun, i) => ({
      name: noun.name,
      description: noun.description,
      ...nounOfTree(
        noun,
        verbs[i]!,
        operations.filter((op) => op.noun === noun.name),
      ),
    })),
  };
}

/** Each flag's `completes`, by its long name. */
const completesOf = (flags: readonly Flag<unknown>[]): Record<string, Completes> =>
  Object.fromEntries(flags.filter((f) => f.completes).map((f) => [longFlag(f.syntax), f.completes!]));

/** A spec's flags and arguments as completion needs them: which flags take a value, how many positionals. */
const shapeOf = (spec: Verb<never>['spec']) => ({
  flags: Object.values(spec.flags ?? {})
    .map((f) => longFlag(f.syntax))
    .concat('--help'),
  valueFlags: Object.values(spec.flags ?? {})
    .filter((f) => f.kind === 'value' || f.kind === 'repeatable')
    .map((f) => longFlag(f.syntax)),
  choices: Object.fromEntries(
    Object.values(spec.flags ?? {})
      .filter((f) => f.choices)
      .map((f) => [longFlag(f.syntax), f.choices!]),
  ),
  completes: completesOf(Object.values(spec.flags ?? {})),
  args: Object.keys(spec.args ?? {}).length,
});

/** A noun's flags (when it is itself the command) and verbs. */
function nounOfTree(
  noun: Noun,
  own: readonly Verb<never>[],
  operations: readonly Operation[],
): Pick<CommandTree['nouns'][number], 'flags' | 'valueFlags' | 'choices' | 'completes' | 'args' | 'verbs'> {
  if ('action' in noun) return { ...shapeOf(noun.action.spec), verbs: [] };
  const self = operations.find((op) => op.verb === undefined);
  if (self) return { ...shapeOf(tableVerbs([self])[0]!.spec), verbs: [] };
  const verbs = verbsOfTree(own, operations);
  return { flags: ['--help'], valueFlags: [], choices: {}, completes: {}, args: 0, verbs };
}

function verbsOfTree(
  verbs: readonly Verb<never>[],
  operations: readonly Operation[],
): CommandTree['nouns'][number]['verbs'] {
  const entries: CommandTree['nouns'][number]['verbs'] = [];
  const all: TableVerb[] = [...verbs, ...tableVerbs(operations)];
  for (const group of new Set(all.map((v) => v.group).filter((g): g is string => g !== undefined))) {
    const names = all.filter((v) => v.group === group).map((v) => v.spec.name);
    entries.push({
      name: group,
      description: GROUPS[group] ?? group,
      flags: names,
      valueFlags: [],
      choices: {},
      completes: {},
      args: 0,
      group: true,
    });
  }
  for (const v of all) {
    const name = v.group === undefined ? v.spec.name : `${v.group} ${v.spec.name}`;
    entries.push({ name, description: v.spec.description, ...shapeOf(v.spec) });
  }
  return entries;
}
