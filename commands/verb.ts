/**
 * A verb is declared once: its arguments, flags and help live in one spec (`<noun>/verbs.ts`), the
 * type of the options its `run` receives is inferred from that spec, and the commander wiring and
 * the mapping from parsed flags to options are generated here. Adding a flag is one edit.
 *
 * This module is part of the command root, which loads on every invocation, and of the verbs that
 * read specs (the global flags name an input in an error): it imports nothing, so that commander,
 * which the root loads anyway, is not bundled and run a second time with the verbs (declare.ts
 * gives the specs to commander).
 */
import type { Deps } from './deps.js';

/** A flag of type T. `syntax` is commander's (`--amount <int>`, `--legacy`, `--no-profile`). */
export interface Flag<T> {
  readonly syntax: string;
  readonly description: string;
  readonly kind: 'value' | 'boolean' | 'negatable' | 'repeatable';
  readonly default?: string;
  /** Commander refuses the command without it (exit 2, naming the flag). */
  readonly required?: boolean;
  /**
   * The only values it takes, in any case (src/choice.ts): checked before `run` (flag-values.ts),
   * which receives them as spelled here, and offered by shell completion.
   */
  readonly choices?: readonly string[];
  /** With `choices`: a comma-separated list of them (`--permissions VIEW,TRANSACT`). */
  readonly list?: true;
  /** What shell completion offers for a value with no `choices` (commands/meta/completion-values.ts). */
  readonly completes?: Completes;
  /** A whole number in this range: checked before `run`, which receives it as a number. */
  readonly integer?: { readonly min: number; readonly max: number };
  /** Never set: carries T for type inference. */
  readonly type?: T;
}

/**
 * Values completion offers after a flag: file names, or names svc knows (stored sessions and
 * profiles, the service's event types). A flag with none of these or `choices` completes nothing.
 */
export type Completes = 'files' | 'sessions' | 'profiles' | 'event-types';

/** A positional argument; `<x>` is required, `[x]` optional. */
export interface Arg<T> {
  readonly syntax: string;
  readonly description: string;
  /**
   * The value may begin with '-' (a PEM's "-----BEGIN"): commander takes such a word as the value,
   * not as an unknown flag; a word shaped like a flag (`--x`, `-x`) is still refused as one.
   */
  readonly dashes?: true;
  readonly type?: T;
}

/** A flag's long name, as users type it: `--base-url <url>` → `--base-url`, `-y, --yes` → `--yes`. */
export function longFlag(syntax: string): string {
  return /--[\w-]+/.exec(syntax)![0];
}

export const flag = {
  /** A flag with a value, undefined when absent: the verb checks it (so a missing and a bad value read alike). */
  value: (syntax: string, description: string, completes?: Completes): Flag<string | undefined> => ({
    syntax,
    description,
    kind: 'value',
    ...(completes && { completes }),
  }),
  /** A file name, undefined when absent: completion offers the shell's file names. */
  file: (syntax: string, description: string): Flag<string | undefined> => ({
    syntax,
    description,
    kind: 'value',
    completes: 'files',
  }),
  /** A flag with a value and a default shown in help. */
  withDefault: (syntax: string, description: string, value: string): Flag<string> => ({
    syntax,
    description,
    kind: 'value',
    default: value,
  }),
  /** A flag commander itself insists on. */
  required: (syntax: string, description: string): Flag<string> => ({
    syntax,
    description,
    kind: 'value',
    required: true,
  }),
  /** One of `choices` (`--card-issuance accept|reject`), undefined when absent unless it has a default. */
  choices: <const C extends string, D extends C | undefined = undefined>(
    syntax: string,
    description: string,
    choices: readonly C[],
    value?: D,
  ): Flag<D extends C ? C : C | undefined> => ({
    syntax,
    description,
    kind: 'value',
    choices,
    ...(value !== undefined && { default: value }),
  }),
  /** A whole number from min to max (`--port <port>`), undefined when absent unless it has a default. */
  integer: <D extends number | undefined = undefined>(
    syntax: string,
    description: string,
    range: { min: number; max?: number },
    value?: D,
  ): Flag<D extends number ? number : number | undefined> => ({
    syntax,
    description,
    kind: 'value',
    integer: { min: range.min, max: range.max ?? Number.MAX_SAFE_INTEGER },
    ...(value !== undefined && { default: String(value) }),
  }),
  /** `--x`: true when given. */
  boolean: (syntax: string, description: string): Flag<boolean> => ({ syntax, description, kind: 'boolean' }),
  /** `--no-x`: true unless given. */
  negatable: (syntax: string, description: string): Flag<boolean> => ({ syntax, description, kind: 'negatable' }),
  /** A flag that may be given several times (`-H a:1 -H b:2`): every value in order, [] when absent. */
  repeatable: (syntax: string, description: string): Flag<string[]> => ({ syntax, description, kind: 'repeatable' }),
};

export const arg = {
  required: (syntax: `<${string}>`, description: string): Arg<string> => ({ syntax, description }),
  optional: (syntax: `[${string}]`, description: string): Arg<string | undefined> => ({ syntax, description }),
  /** A required value that may begin with '-' (Arg.dashes), like a PEM key. */
  text: (syntax: `<${string}>`, description: string): Arg<string> => ({ syntax, description, dashes: true }),
  /** `[ids...]`: any number of values, the last argument; an empty list when none is given. */
  variadic: (syntax: `[${string}...]`, description: string): Arg<string[]> => ({ syntax, description }),
};

type Args = Record<string, Arg<unknown>>;
export type Flags = Record<string, Flag<unknown>>;

export interface VerbSpec<A extends Args = Args, F extends Flags = Flags> {
  /** The word after the noun (`fund` in `svc sandbox fund`). */
  name: string;
  description: string;
  /** Positional arguments, in order; each key is the option name `run` receives. */
  args?: A;
  /** Flags; each key is the option name `run` receives. */
  flags?: F;
  /** Shown after the flags by `--help`: rules a script trips over, and examples. */
  help?: string;
  /**
   * Runs until stopped and has cleanup to do (a server, the demo): a reader that closes stdout
   * (`| head -1`) stops it as Ctrl-C does, through its cleanup. Other verbs print their result
   * after the work it reports, so the process just ends there.
   */
  serves?: true;
}

/** Properties that may be undefined become optional, so callers (the demo) pass only what they mean. */
type Props<R> = { [K in keyof R as undefined extends R[K] ? never : K]: R[K] } & {
  [K in keyof R as undefined extends R[K] ? K : never]?: R[K];
};
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The options `run` receives for a spec: one property per argument and per flag. */
export type OptionsOf<S> =
  S extends VerbSpec<infer A, infer F>
    ? Simplify<
        Props<
          { [K in keyof A]: A[K] extends Arg<infer T> ? T : never } & {
            [K in keyof F]: F[K] extends Flag<infer T> ? T : never;
          }
        >
      >
    : never;

/** What a verb module exports. */
export interface VerbModule<O> {
  run: (opts: O, deps: Deps) => Promise<void>;
}

/** A spec with the module that runs it, loaded only when the verb runs. */
export interface Verb<O = never> {
  spec: VerbSpec;
  load: () => Promise<VerbModule<O>>;
}

/** Declares a verb's flags and arguments; its module types `run(opts: OptionsOf<typeof spec>, deps)`. */
export function defineVerb<A extends Args = Record<never, never>, F extends Flags = Record<never, never>>(
  spec: VerbSpec<A, F>,
): VerbSpec<A, F> {
  return spec;
}

/**
 * Pairs a spec with its module. Kept apart from the spec so the module can name the spec's type
 * without a circular inference; the compiler checks that the module's `run` takes these options.
 */
export function verb<A extends Args, F extends Flags>(
  spec: VerbSpec<A, F>,
  load: () => Promise<VerbModule<OptionsOf<VerbSpec<A, F>>>>,
): Verb<OptionsOf<VerbSpec<A, F>>> {
  return { spec, load };
}
