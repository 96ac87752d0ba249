/**
 * The command root, what bin/svc.js runs: reads the command words, loads what the invoked noun
 * needs first (its resource-table verbs, its argument help), builds the commander program
 * (program.ts), and hands the parsed verb to its module, which loads only then. It loads on every
 * invocation, so it imports commander and the verb specs and nothing else (startup is a feature:
 * README "Performance").
 */
import { GLOBAL_VALUE_FLAGS, type GlobalOptions } from './global-flags.js';
import type { VerbModule, VerbSpec } from './verb.js';
import { TABLE_NOUNS, tableVerbs, type TableVerb } from './resources/verbs.js';
import { idsInWords, type KnownIds, parseErrorJSON, rewriteArgv, wantsJson } from './argv.js';
import { commandWords } from './argv-words.js';
import { nounNamed, verbsOf } from './nouns.js';
import type { Command } from 'commander';
import { buildProgram, type Execute } from './program.js';
import { commandTree, type CommandTree } from './command-tree.js';

/** For the build, which writes them beside the argv scanner for bin/svc.js (dist/cli/argv-words.cjs). */
export { GLOBAL_VALUE_FLAGS };

// The codes of commands/exit-codes.ts, repeated rather than imported: that module pulls in the
// error classes, which the root never needs.
const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

/**
 * The verbs of the noun `words` invoke: its own specs (loaded only now, so a command runs the top
 * level of no other noun's specs) and the resource table's, read only for a noun that has some and
 * not for one of its own verbs (`svc sandbox fund` reads no table). None for `svc --help`.
 */
async function loadVerbs([word, verbWord]: string[]): Promise<readonly TableVerb[]> {
  const noun = nounNamed(word);
  if (noun === undefined) return [];
  const own = await verbsOf(noun);
  if (!TABLE_NOUNS.has(noun.name) || own.some((v) => v.spec.name === verbWord)) return own;
  return [...own, ...tableVerbs((await import('./resources/table.js')).operationsOf(noun.name))];
}

/**
 * Help that depends on an argument, loaded only for `--help`: `svc trigger <scenario> --help` adds
 * that scenario's inputs and settable paths (commands/trigger/scenario-help.ts).
 */
async function loadHelpAfter(argv: string[], [word, scenario]: string[]): Promise<string | undefined> {
  if (nounNamed(word)?.name !== 'trigger' || scenario === undefined) return undefined;
  if (!argv.slice(2).some((a) => a === '--help' || a === '-h')) return undefined;
  return (await import('./trigger/scenario-help.js')).scenarioHelp(scenario);
}

/**
 * The ids a suggestion for a word svc does not have can name (commands/argv.ts MEANT): the card the
 * words give, and for `logout` the active session, read from the store only then.
 */
async function knownIds(argv: string[], words: string[]): Promise<KnownIds> {
  const fromWords = idsInWords(words);
  if (!words.slice(0, 2).includes('logout')) return fromWords;
  const { activeSessionIds } = await import('./active-session-ids.js');
  return { ...fromWords, ...(await activeSessionIds(argv.slice(2), process.env)) };
}

/**
 * The commander program for `argv`, with what it needs loaded first: the invoked noun's verbs and
 * its help for its arguments. Tests parse command lines with it, with an `execute` of their own.
 */
export async function programFor(argv: string[], execute: Execute, known: KnownIds = {}): Promise<Command> {
  const words = commandWords(argv.slice(2), GLOBAL_VALUE_FLAGS);
  const [verbs, helpAfter] = await Promise.all([loadVerbs(words), loadHelpAfter(argv, words)]);
  return buildProgram(argv, execute, verbs, helpAfter, known);
}

/** Every command of svc, with the resource table's: what `svc completion` is generated from. */
async function allCommands(): Promise<CommandTree> {
  return commandTree((await import('./resources/table.js')).OPERATIONS);
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
    commands: () => Promise<CommandTree>,
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
  let known: KnownIds = {};
  const words = commandWords(argv.slice(2), GLOBAL_VALUE_FLAGS);
  const noun = words[0];
  const execute: Execute = async (verb, options, globals) => {
    serves = verb.spec.serves === true;
    const loaded = (await verb.load()) as VerbModule<never> | BuiltVerb;
    const { signal } = controller;
    if ('execute' in loaded) code = await loaded.execute(verb.spec, options, globals, signal, allCommands);
    else code = await (await import('./run-verb.js')).runVerb(loaded, verb.spec, options, globals, signal, allCommands);
  };
  try {
    known = await knownIds(argv, words);
    await (await programFor(argv, execute, known)).parseAsync(argv);
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
        process.stderr.write(JSON.stringify({ error: parseErrorJSON(error as Error, commanderCode, known) }) + '\n');
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
