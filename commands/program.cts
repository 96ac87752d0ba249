/**
 * Builds the commander tree and runs it. Each noun's verbs are added by `register<Noun>(noun)` in
 * `commands/<noun>/register.cts`, which only declares flags; a verb's module loads when it runs.
 *
 * Startup is a feature (README "Performance"). This root path (bin/svc.js, program, lazy, version,
 * the register files) is CommonJS on purpose: on Node 20 an ES-module entry that then loads
 * CommonJS commander costs about 10 ms more than an all-CommonJS path, which is most of the
 * budget. Command modules stay ES modules and are import()ed only when their command runs.
 */
import { Command, type Command as CommandType } from 'commander';
import type { GlobalOptions } from './deps.js';
import { setDepsFactory, globalsOf } from './lazy.cjs';
import { VERSION } from './version.cjs';

// The codes of commands/exit-codes.ts, repeated rather than imported: that module is an ES module,
// and loading it here would cost every invocation its startup time.
const EXIT_OK = 0;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

function buildProgram(argv: string[]): CommandType {
  const program = new Command('svc')
    .description('Command-line tool for integrators of the payments service, with an embedded sandbox emulator')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--profile <name>', 'configuration profile to use (env SERVICE_PROFILE)')
    .option('--base-url <url>', 'service base URL including the version segment (env SERVICE_BASE_URL)')
    .option('--json', 'print only JSON on stdout, with a stable shape')
    .option('--no-input', 'never prompt; a missing value is an error naming the flag')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('--verbose', 'log each request (method, path, status, timing; never secrets) to stderr')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();

  const noun = invokedNoun(argv);
  registerNouns(program, noun);
  program.hook('preAction', () => preferBaselineWasm(noun)); // only when a command really runs
  return program;
}

/**
 * The nouns, in help order, with the one description each has. Every noun is created here; only the
 * invoked noun's register file is loaded to add its verbs and flags, so `svc --help` lists them all
 * without loading any.
 */
const NOUNS: Array<{ name: string; description: string; load: () => (noun: CommandType) => void }> = [
  { name: 'otp', description: 'log in with an email or SMS one-time password', load: () => (require('./otp/register.cjs') as typeof import('./otp/register.cjs')).registerOtp },
  { name: 'session', description: 'list, refresh, revoke and switch auth sessions', load: () => (require('./session/register.cjs') as typeof import('./session/register.cjs')).registerSession },
  { name: 'sandbox', description: 'simulate funding and payments in the sandbox', load: () => (require('./sandbox/register.cjs') as typeof import('./sandbox/register.cjs')).registerSandbox },
  { name: 'cards', description: 'reveal card details (a short-lived, one-use URL)', load: () => (require('./cards/register.cjs') as typeof import('./cards/register.cjs')).registerCards },
  { name: 'webhook', description: "receive, verify and check the service's webhook deliveries", load: () => (require('./webhook/register.cjs') as typeof import('./webhook/register.cjs')).registerWebhook },
  { name: 'emulator', description: 'the embedded sandbox emulator (a local server that behaves like the sandbox)', load: () => (require('./emulator/register.cjs') as typeof import('./emulator/register.cjs')).registerEmulator },
  { name: 'config', description: 'profiles: base URL, credentials and pinned keys', load: () => (require('./config/register.cjs') as typeof import('./config/register.cjs')).registerConfig },
  { name: 'keys', description: 'P-256 keys, API-key stamps and HPKE bundles', load: () => (require('./keys/register.cjs') as typeof import('./keys/register.cjs')).registerKeys },
  { name: 'demo', description: 'walk the whole flow once (OTP login, sessions, sandbox money, card webhooks, reveal) on an in-process emulator', load: () => (require('./demo/register.cjs') as typeof import('./demo/register.cjs')).registerDemo },
];

/** Nouns whose commands serve until Ctrl-C; every other command finishes in a moment. */
const LONG_RUNNING = new Set(['emulator', 'webhook']);

/**
 * undici parses HTTP with a WebAssembly module. V8 compiles it with its baseline compiler (Liftoff),
 * then recompiles it with TurboFan on background threads, and Node waits for those background
 * compiles before it exits: about 70 ms added to every command that makes a request. A command that
 * makes a handful of requests gains nothing from TurboFan, so short-lived commands keep the baseline
 * code. The flag is read when the module is compiled, which happens on the first request, after this
 * runs (node:v8 is loaded here, not at the top: help and usage errors need none of it). Servers
 * (emulator, webhook listen) keep the optimising tier.
 */
function preferBaselineWasm(noun: string | undefined): void {
  if (noun !== undefined && !LONG_RUNNING.has(noun)) (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
}

/** Global flags that take a value, so the word after them is not the noun. */
const VALUE_FLAGS = new Set(['--profile', '--base-url']);

/** The first positional word of argv (the noun), skipping global flags and their values. */
export function invokedNoun(argv: string[]): string | undefined {
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (VALUE_FLAGS.has(a)) i++;
    else if (a === 'help' && i + 1 < args.length) continue; // `svc help session` needs the session verbs
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

function registerNouns(program: CommandType, invoked: string | undefined): void {
  for (const noun of NOUNS) {
    const command = program.command(noun.name).description(noun.description);
    if (noun.name === invoked) noun.load()(command);
  }
}

/** Runs the CLI and resolves to the exit code; never calls process.exit itself. */
export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now": the first one already asked the command to stop cleanly.
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort(new Error(`received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `svc … | head` closes our stdout early; that is the reader's choice, not an error to report.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_OK);
  });
  setDepsFactory(async (globals: GlobalOptions) => (await import('./deps.js')).createDeps(globals, controller.signal));

  const program = buildProgram(argv);
  let globals: GlobalOptions | undefined;
  program.hook('preAction', (_root, action) => {
    globals = globalsOf(action);
  });
  try {
    await program.parseAsync(argv);
    // A command that returns normally after a signal (a server told to stop) stopped cleanly.
    return EXIT_OK;
  } catch (error) {
    const commanderCode = (error as { code?: string }).code;
    if (commanderCode === 'commander.helpDisplayed' || commanderCode === 'commander.version' || commanderCode === 'commander.help') {
      return EXIT_OK;
    }
    if (commanderCode?.startsWith('commander.')) return EXIT_USAGE; // commander already printed why
    const [{ renderError }, { exitCodeFor }, { decideColor }] = await Promise.all([
      import('./render-error.js'),
      import('./exit-codes.js'),
      import('./deps.js'),
    ]);
    const g = globals ?? globalsOf(program);
    const interrupted = controller.signal.aborted;
    const color = decideColor(g, process.env, Boolean(process.stderr.isTTY));
    renderError(error, { stderr: process.stderr, json: g.json, verbose: g.verbose, color, interrupted });
    return interrupted ? EXIT_INTERRUPTED : exitCodeFor(error);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
