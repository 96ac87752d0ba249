/**
 * The command root: builds the commander tree from the verb specs (`<noun>/verbs.ts`), parses argv
 * and hands the parsed verb to its module, which loads only then. The root loads on every
 * invocation, so it imports commander and the specs and nothing else (startup is a feature:
 * README "Performance").
 */
import { Command, Help } from 'commander';
import { GLOBAL_FLAGS, GLOBAL_SPEC, GLOBAL_VALUE_FLAGS, type GlobalOptions } from './global-flags.js';
import { addFlags, declare, optionsFrom } from './declare.js';
import { longFlag, type Verb, type VerbModule, type VerbSpec } from './verb.js';
import { VERSION } from './version.js';
import { apiVerb } from './api/verbs.js';
import { cardsVerbs } from './cards/verbs.js';
import { configVerbs } from './config/verbs.js';
import { demoVerb } from './demo/verbs.js';
import { emulatorVerbs } from './emulator/verbs.js';
import { keysVerbs } from './keys/verbs.js';
import { otpVerbs } from './otp/verbs.js';
import { loginVerbs } from './login/verbs.js';
import { credentialsVerbs } from './credentials/verbs.js';
import { sandboxVerbs } from './sandbox/verbs.js';
import { sessionVerbs } from './session/verbs.js';
import { authVerbs } from './auth/verbs.js';
import { triggerVerb } from './trigger/verbs.js';
import { webhookVerbs } from './webhook/verbs.js';
import { completionVerb, versionVerb } from './meta/verbs.js';
import { GROUPS, RESOURCE_NOUNS, TABLE_NOUNS, tableVerbs, type TableVerb } from './resources/verbs.js';
import type { Operation } from './resources/operation.js';
import { optionsAfterCommands, parseErrorJSON, restyleParseError, rewriteArgv, wantsJson } from './argv.js';
import { colors, decideColor } from './colors.js';

// The codes of commands/exit-codes.ts, repeated rather than imported: that module pulls in the
// error classes, which the root never needs.
const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

/** A noun has verbs (`svc session refresh`), or is itself the command (`svc demo`). */
type Noun = { name: string; description: string; aliases?: string[] } & (
  | { verbs: Verb<never>[] }
  | { action: Verb<never> }
);

/** The nouns, in help order. Only the invoked noun's verbs are added to the tree. */
const NOUNS: Noun[] = [
  { name: 'login', description: 'log in with any credential type: otp, oauth or passkey', verbs: loginVerbs },
  { name: 'otp', description: 'log in with an email or SMS one-time password', verbs: otpVerbs },
  { name: 'credentials', description: "list, add and remove an account's login credentials", verbs: credentialsVerbs },
  { name: 'session', description: 'list, refresh, revoke and switch auth sessions', verbs: sessionVerbs },
  {
    name: 'auth',
    description: "svc auth status; credentials, delegated keys and sessions, as the official CLI's auth",
    verbs: authVerbs,
  },
  { name: 'sandbox', description: 'simulate funding and payments in the sandbox', verbs: sandboxVerbs },
  { name: 'cards', description: 'list, issue, update and reveal cards', verbs: cardsVerbs },
  ...RESOURCE_NOUNS.map((noun) => ({ ...noun, verbs: [] })),
  { name: 'webhook', description: "receive, verify and check the service's webhook deliveries", verbs: webhookVerbs },
  {
    name: 'emulator',
    description: 'the embedded sandbox emulator (a local server that behaves like the sandbox)',
    verbs: emulatorVerbs,
  },
  { name: 'config', description: 'profiles: base URL, credentials and pinned keys', verbs: configVerbs },
  { name: 'keys', description: 'P-256 keys, API-key stamps and HPKE bundles', verbs: keysVerbs },
  { name: 'api', description: apiVerb.spec.description, action: apiVerb },
  { name: 'trigger', description: triggerVerb.spec.description, action: triggerVerb },
  { name: 'demo', description: demoVerb.spec.description, action: demoVerb },
  { name: 'completion', description: completionVerb.spec.description, action: completionVerb },
  { name: 'version', description: versionVerb.spec.description, action: versionVerb },
];

/**
 * What the root does with a parsed verb. The CLI loads the verb's module and runs it; a test
 * passes its own to see the options a command line produces without running anything.
 */
export type Execute = (verb: Verb<never>, options: Record<string, unknown>, globals: GlobalOptions) => Promise<void>;

/** For the build, which writes them where bin/svc.js reads them (dist/cli/global-value-flags.cjs). */
export { GLOBAL_VALUE_FLAGS };

/** Global flags that take a value, so the word after them is not the noun. */
const VALUE_FLAGS = new Set(GLOBAL_VALUE_FLAGS);

/** The first positional word of argv (the noun), skipping global flags and their values. */
export function invokedNoun(argv: string[]): string | undefined {
  return invokedWords(argv)[0];
}

/** The positional words of argv (noun, then verb…), skipping global flags and their values. */
function invokedWords(argv: string[]): string[] {
  const args = argv.slice(2);
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_FLAGS.has(a)) i++;
    else if (a === 'help' && i + 1 < args.length && words.length === 0)
      continue; // `svc help session` needs the session verbs
    else if (a.startsWith('--') && a.includes('='))
      continue; // --profile=x carries its own value
    else if (!a.startsWith('-')) words.push(a);
  }
  return words;
}

/** The noun a word names, itself or by an alias (`tx` → transactions); other words as they are. */
function nounNamed(word: string | undefined): string | undefined {
  return NOUNS.find((noun) => noun.name === word || noun.aliases?.includes(word ?? ''))?.name ?? word;
}

/** Reads the global flags from the root command, whatever the nesting. */
export function globalsOf(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  const globals = optionsFrom(GLOBAL_SPEC, [], root.opts()) as GlobalOptions;
  // --jq filters the --json output, so it implies --json.
  return { ...globals, json: globals.json || globals.jq !== undefined };
}

/** Declares `verb` on `command` with an action that maps what commander parsed and calls `execute`. */
function mount(command: Command, verb: Verb<never>, execute: Execute): void {
  declare(command, verb.spec).action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    // processedArgs: one entry per declared argument, a variadic one (`[ids...]`) as its array.
    const positionals = self.processedArgs;
    await execute(verb, optionsFrom(verb.spec, positionals, self.opts()), globalsOf(self));
  });
}

/**
 * Mounts `verbs` on a noun's command: a verb of a group (`svc auth sessions list`) under that
 * group's command, made once; a verb named as the noun (`svc exchange-rates`) on the noun itself.
 */
function mountAll(command: Command, verbs: readonly TableVerb[], execute: Execute): void {
  const groups = new Map<string, Command>();
  for (const verb of verbs) {
    if (verb.group === undefined && verb.spec.name === command.name()) {
      mount(command, verb, execute);
      continue;
    }
    let parent = command;
    if (verb.group !== undefined) {
      parent = groups.get(verb.group) ?? command.command(verb.group).description(GROUPS[verb.group] ?? verb.group);
      groups.set(verb.group, parent);
    }
    mount(parent.command(verb.spec.name), verb, execute);
  }
}

/**
 * The table's verbs of the noun `argv` invokes, loaded only for a noun that has some and not for
 * one of its own verbs (`svc sandbox fund` reads no table), nor for `svc --help`.
 */
export async function loadTableVerbs(argv: string[]): Promise<TableVerb[]> {
  const [word, verbWord] = invokedWords(argv);
  const noun = NOUNS.find((n) => n.name === nounNamed(word));
  if (noun === undefined || !TABLE_NOUNS.has(noun.name)) return [];
  if ('verbs' in noun && noun.verbs.some((v) => v.spec.name === verbWord)) return [];
  return tableVerbs((await import('./resources/table.js')).operationsOf(noun.name));
}

/** The root's help ends as every verb's does: with commands to copy, a first session against the emulator. */
const ROOT_EXAMPLES = `
Examples:
  $ svc emulator start --detach
  $ svc otp verify --credential AuthMethod:<uuid> --code 000000
  $ svc trigger kyc.rejected
  $ svc --json customers list --jq '.data[].id'
  $ svc emulator stop

Run svc <command> --help for a command's flags and examples.`;

/** Colours for stderr as a verb's would be (--no-color, NO_COLOR, FORCE_COLOR, a terminal). */
function stderrColors(argv: string[]) {
  return colors(decideColor({ color: !argv.includes('--no-color') }, process.env, process.stderr.isTTY === true));
}

/**
 * Help that depends on an argument, loaded only for `--help`: `svc trigger <scenario> --help` adds
 * that scenario's inputs and settable paths (commands/trigger/scenario-help.ts).
 */
export async function loadHelpAfter(argv: string[]): Promise<string | undefined> {
  const [word, scenario] = invokedWords(argv);
  if (nounNamed(word) !== 'trigger' || scenario === undefined) return undefined;
  if (!argv.slice(2).some((a) => a === '--help' || a === '-h')) return undefined;
  return (await import('./trigger/scenario-help.js')).scenarioHelp(scenario);
}

/**
 * The commander tree for `argv`, whose actions call `execute`; `table` holds the invoked noun's
 * verbs from the resource table (loadTableVerbs), `helpAfter` the invoked noun's help for its
 * arguments (loadHelpAfter).
 */
export function buildProgram(
  argv: string[],
  execute: Execute,
  table: readonly TableVerb[] = [],
  helpAfter?: string,
): Command {
  const program = new Command('svc')
    .description('Command-line tool for integrators of the payments service, with an embedded sandbox emulator')
    .version(VERSION, '-V, --version', 'print the version');
  addFlags(program, GLOBAL_FLAGS);
  program
    // Under --json, commander's own parse errors become one JSON object too (main, below): its text is held back.
    .configureOutput(
      wantsJson(argv)
        ? { writeErr: () => {}, outputError: () => {} }
        : {
            // Coloured only here: chalk is loaded for an error, never for a run that parses.
            outputError: (text, write) => {
              const c = stderrColors(argv);
              write(`${restyleParseError(text, c)}${c.dim('Hint: run the command with --help for usage.')}\n`);
            },
          },
    )
    .configureHelp({
      showGlobalOptions: true,
      formatHelp: (cmd, helper) => optionsAfterCommands(Help.prototype.formatHelp.call(helper, cmd, helper)),
    })
    .addHelpText('after', ROOT_EXAMPLES)
    .exitOverride();

  const invoked = nounNamed(invokedNoun(argv));
  // A run of one noun's verb builds that noun alone (about 1 ms less); `svc --help`, or a noun that
  // does not exist (so commander can suggest the right one), lists every noun without its verbs.
  const known = NOUNS.some((noun) => noun.name === invoked);
  for (const noun of NOUNS) {
    if (known && noun.name !== invoked) continue;
    const command = program.command(noun.name).description(noun.description);
    if (noun.aliases) command.aliases(noun.aliases);
    if (noun.name !== invoked) continue;
    if ('action' in noun) mount(command, noun.action, execute);
    else mountAll(command, [...noun.verbs, ...table], execute);
    if (helpAfter) command.addHelpText('after', helpAfter);
  }
  return program;
}

/** A noun or verb as shell completion sees it. */
export interface CompletionEntry {
  name: string;
  description: string;
  flags: string[];
  /** Of those, the flags that take a value (`--profile <name>`): completion offers values after them, never flags. */
  valueFlags: string[];
  /** The values of the flags that take one of a few (`--card-issuance`: accept, reject). */
  choices: Record<string, readonly string[]>;
  /** How many positional arguments it takes (for a noun: when the noun is itself the command). */
  args: number;
}

/** Every noun, verb and flag, for shell completion (commands/meta/completion.ts). */
export interface CommandTree {
  globalFlags: string[];
  nouns: (CompletionEntry & {
    /** A group's entry (`credentials`) lists its verbs as flags, and each verb is `credentials list`. */
    verbs: (CompletionEntry & { group?: true })[];
  })[];
  /** Global flags that take a value. */
  globalValueFlags: string[];
}

/** The command tree; `operations` (commands/resources/table.ts) adds the resource commands. */
export function commandTree(operations: readonly Operation[] = []): CommandTree {
  const root = buildProgram(['node', 'svc'], async () => {});
  return {
    globalFlags: root.options
      .map((o) => o.long)
      .filter((l): l is string => l !== undefined)
      .concat('--help'),
    globalValueFlags: root.options
      .filter((o) => o.required || o.optional)
      .map((o) => o.long)
      .filter((l): l is string => l !== undefined),
    nouns: NOUNS.map((noun) => ({
      name: noun.name,
      description: noun.description,
      ...nounOfTree(
        noun,
        operations.filter((op) => op.noun === noun.name),
      ),
    })),
  };
}

const longFlags = (spec: Verb<never>['spec']) =>
  Object.values(spec.flags ?? {})
    .map((f) => longFlag(f.syntax))
    .concat('--help');

/** A spec's flags and arguments as completion needs them: which flags take a value, how many positionals. */
const shapeOf = (spec: Verb<never>['spec']) => ({
  flags: longFlags(spec),
  valueFlags: Object.values(spec.flags ?? {})
    .filter((f) => f.kind === 'value' || f.kind === 'repeatable')
    .map((f) => longFlag(f.syntax)),
  choices: Object.fromEntries(
    Object.values(spec.flags ?? {})
      .filter((f) => f.choices)
      .map((f) => [longFlag(f.syntax), f.choices!]),
  ),
  args: Object.keys(spec.args ?? {}).length,
});

/** A noun's flags (when it is itself the command) and verbs. */
function nounOfTree(
  noun: Noun,
  operations: readonly Operation[],
): Pick<CommandTree['nouns'][number], 'flags' | 'valueFlags' | 'choices' | 'args' | 'verbs'> {
  if ('action' in noun) return { ...shapeOf(noun.action.spec), verbs: [] };
  const self = operations.find((op) => op.verb === undefined);
  if (self) return { ...shapeOf(tableVerbs([self])[0]!.spec), verbs: [] };
  return { flags: ['--help'], valueFlags: [], choices: {}, args: 0, verbs: verbsOfTree(noun.verbs, operations) };
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

/**
 * A built verb module runs itself through run-verb.ts (see .ci/build.mjs), which the verbs bundle
 * shares with the verb's error classes, so what it throws is rendered by the code that knows them.
 */
interface BuiltVerb {
  execute(
    spec: VerbSpec,
    options: Record<string, unknown>,
    globals: GlobalOptions,
    signal: AbortSignal,
  ): Promise<number>;
}

/** Runs the CLI and resolves to the exit code; never calls process.exit itself. */
export async function main(rawArgv: string[]): Promise<number> {
  const argv = rewriteArgv(rawArgv);
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now": the first one already asked the command to stop cleanly.
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `svc … | head` closes our stdout early; that is the reader's choice, not an error to report.
  // Results are printed after the work they report (a login's key is stored first), so stopping
  // here loses nothing; a verb that serves is stopped instead, so that it cleans up (VerbSpec.serves).
  let serves = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') return;
    if (!serves) process.exit(process.exitCode ?? EXIT_OK);
    if (!controller.signal.aborted) controller.abort(new Error('stdout closed'));
  });
  // stderr carries progress, written while the work is under way (`svc otp verify … 2>&1 | head -1`):
  // a reader gone there must not stop the command half way, so the lines are dropped and it goes on.
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

  let code = EXIT_OK;
  const noun = invokedNoun(argv);
  const execute: Execute = async (verb, options, globals) => {
    serves = verb.spec.serves === true;
    const loaded = (await verb.load()) as VerbModule<never> | BuiltVerb;
    if ('execute' in loaded) code = await loaded.execute(verb.spec, options, globals, controller.signal);
    else code = await (await import('./run-verb.js')).runVerb(loaded, verb.spec, options, globals, controller.signal);
  };
  try {
    const [table, helpAfter] = await Promise.all([loadTableVerbs(argv), loadHelpAfter(argv)]);
    await buildProgram(argv, execute, table, helpAfter).parseAsync(argv);
    return code;
  } catch (error) {
    const commanderCode = (error as { code?: string }).code;
    // `svc --json` or `svc --json session` with no verb: commander showed help for an error, which
    // --json held back; a script gets the usage error instead of an empty, successful run.
    if (commanderCode === 'commander.help' && (error as { exitCode?: number }).exitCode === 1 && wantsJson(argv)) {
      const message = noun === undefined ? 'a command is required' : `svc ${noun} needs a command`;
      process.stderr.write(
        JSON.stringify({
          error: {
            type: 'usage',
            message,
            field: noun ?? 'command',
            hint: `Run svc ${noun ? `${noun} ` : ''}--help for the commands.`,
          },
        }) + '\n',
      );
      return EXIT_USAGE;
    }
    if (
      commanderCode === 'commander.helpDisplayed' ||
      commanderCode === 'commander.version' ||
      commanderCode === 'commander.help'
    ) {
      return EXIT_OK;
    }
    if (commanderCode?.startsWith('commander.')) {
      // Without --json commander already printed why; with it, nothing was printed yet.
      if (wantsJson(argv))
        process.stderr.write(JSON.stringify({ error: parseErrorJSON(error as Error, commanderCode) }) + '\n');
      return EXIT_USAGE;
    }
    // Only a verb that failed to load gets here; everything a verb throws is rendered by run-verb.ts.
    const message = (error as Error).message ?? String(error);
    process.stderr.write(
      wantsJson(argv) ? JSON.stringify({ error: { type: 'internal', message } }) + '\n' : `Error: ${message}\n`,
    );
    return EXIT_FAILURE;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
