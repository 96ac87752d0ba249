/**
 * The commander program for a command line: the global flags, every noun of the noun table
 * (nouns.ts), and the invoked noun's verbs with actions that hand the parsed options to `execute`.
 * Only the invoked noun's verbs are mounted, so `svc --help` and a verb's run build little. Part
 * of the command root (commands/main.ts), so it imports commander and the specs and nothing else.
 */
import { Command, Help } from 'commander';
import { GLOBAL_FLAGS, GLOBAL_SPEC, GLOBAL_VALUE_FLAGS, type GlobalOptions } from './global-flags.js';
import { commandWords } from './argv-words.js';
import { addFlags, checkDashArgs, declare, optionsFrom } from './declare.js';
import type { Verb } from './verb.js';
import { VERSION } from './version.js';
import { GROUPS, type TableVerb } from './resources/verbs.js';
import { type KnownIds, optionsAfterCommands, restyleParseError, wantsJson } from './argv.js';
import { colors, decideColor } from './colors.js';
import { NOUN_GROUPS, NOUNS, nounNamed } from './nouns.js';

/**
 * What the root does with a parsed verb. The CLI loads the verb's module and runs it; a test
 * passes its own to see the options a command line produces without running anything.
 */
export type Execute = (verb: Verb<never>, options: Record<string, unknown>, globals: GlobalOptions) => Promise<void>;

/** Reads the global flags from the root command, whatever the nesting. */
function globalsOf(command: Command): GlobalOptions {
  let root = command;
  while (root.parent) root = root.parent;
  const globals = optionsFrom(GLOBAL_SPEC, [], root.opts()) as GlobalOptions;
  // --jq filters the --json output, so it implies --json.
  return { ...globals, json: globals.json || globals.jq !== undefined };
}

/** Declares `verb` on `command` with an action that maps what commander parsed and calls `execute`. */
function mount(command: Command, verb: Verb<never>, execute: Execute, argv: readonly string[]): void {
  const dashes = Object.values(verb.spec.args ?? {}).some((a) => a.dashes);
  declare(command, verb.spec).action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    if (dashes) checkDashArgs(self, verb.spec, argv);
    // processedArgs: one entry per declared argument, a variadic one (`[ids...]`) as its array.
    const positionals = self.processedArgs;
    await execute(verb, optionsFrom(verb.spec, positionals, self.opts()), globalsOf(self));
  });
}

/**
 * Mounts `verbs` on a noun's command: a verb of a group (`svc auth sessions list`) under that
 * group's command, made once; a verb named as the noun (`svc exchange-rates`) on the noun itself.
 */
function mountAll(command: Command, verbs: readonly TableVerb[], execute: Execute, argv: readonly string[]): void {
  const groups = new Map<string, Command>();
  for (const verb of verbs) {
    if (verb.group === undefined && verb.spec.name === command.name()) {
      mount(command, verb, execute, argv);
      continue;
    }
    let parent = command;
    if (verb.group !== undefined) {
      parent = groups.get(verb.group) ?? command.command(verb.group).description(GROUPS[verb.group] ?? verb.group);
      groups.set(verb.group, parent);
    }
    mount(parent.command(verb.spec.name), verb, execute, argv);
  }
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
 * The commander program for `argv`, whose actions call `execute`; `verbs` holds the invoked noun's
 * verbs, its own and the resource table's, `helpAfter` its help for its arguments (both loaded by
 * main.ts's programFor before the program is built).
 */
export function buildProgram(
  argv: string[],
  execute: Execute,
  verbs: readonly TableVerb[] = [],
  helpAfter?: string,
  known: KnownIds = {},
): Command {
  const program = new Command('svc')
    .description('Command-line tool for integrators of the payments service, with an embedded sandbox emulator')
    .version(VERSION, '-V, --version', 'print the version');
  addFlags(program, GLOBAL_FLAGS);
  program
    // Under --json, commander's own parse errors become one JSON object too (main.ts): its text is held back.
    .configureOutput(
      wantsJson(argv)
        ? { writeErr: () => {}, outputError: () => {} }
        : {
            // Coloured only here: chalk is loaded for an error, never for a run that parses.
            outputError: (text, write) => {
              const c = stderrColors(argv);
              write(`${restyleParseError(text, c, known)}${c.dim('Hint: run the command with --help for usage.')}\n`);
            },
          },
    )
    .configureHelp({
      showGlobalOptions: true,
      formatHelp: (cmd, helper) => optionsAfterCommands(Help.prototype.formatHelp.call(helper, cmd, helper)),
    })
    .addHelpText('after', ROOT_EXAMPLES)
    .exitOverride();

  const invoked = nounNamed(commandWords(argv.slice(2), GLOBAL_VALUE_FLAGS)[0]);
  // A run of one noun's verb builds that noun alone; `svc --help`, or a noun that does not exist
  // (so commander can suggest the right one), lists every noun without its verbs.
  for (const noun of NOUNS) {
    if (invoked !== undefined && noun !== invoked) continue;
    const command = program.command(noun.name).description(noun.description).helpGroup(NOUN_GROUPS[noun.group]);
    if (noun.aliases) command.aliases(noun.aliases);
    if (noun !== invoked) continue;
    if ('action' in noun) mount(command, noun.action, execute, argv);
    else mountAll(command, verbs, execute, argv);
    if (helpAfter) command.addHelpText('after', helpAfter);
  }
  // `help [command]` joins svc's own housekeeping in the grouped root help. Set last: a command made
  // after this would inherit the root's help command, heading included.
  program.commandsGroup(NOUN_GROUPS.other).helpCommand(true);
  return program;
}
