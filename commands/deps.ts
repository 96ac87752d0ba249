/**
 * The dependencies a command's `run(opts, deps)` receives: IO streams with their TTY facts,
 * environment, global flags, a prompter, a clock, an abort signal, and the store, the selected
 * profile and the API client, each made on first use and then shared. Built once per process by
 * `createDeps`; tests build their own with fake streams (see test/helpers/fake-deps.ts).
 * Nothing here is a module singleton, and nothing heavy is imported until it is used: conf loads
 * with the first `store()`, undici with the first `client()`.
 */
import type { ApiClient, HttpLogEntry } from '../src/http/types.js';
import type { SelectedProfile } from '../src/store/resolve.js';
import type { Store } from '../src/store/types.js';
import type { GlobalOptions, IOStreams } from './io.js';
import type { CommandTree } from './command-tree.js';
import type { JqFilter } from './jq/compile.js';
import { createUI, type UI } from './ui.js';
import { decideColor } from './colors.js';

export type { GlobalOptions } from './io.js';

/** Interactive questions. Only called when `canPrompt(deps)` is true. */
export interface Prompter {
  input(question: { message: string; default?: string; validate?: (value: string) => true | string }): Promise<string>;
  password(question: { message: string; mask?: boolean; validate?: (value: string) => true | string }): Promise<string>;
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
}

export interface Clock {
  now(): number;
}

/** What a command gets besides the store and the client. */
export interface BaseDeps {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  prompter: Prompter;
  clock: Clock;
  /** Aborted on SIGINT/SIGTERM; long operations pass it down so Ctrl-C stops them cleanly. */
  signal: AbortSignal;
  /**
   * Every command of svc (commands/command-tree.ts), for `svc completion`: given by the command
   * root, since a verb module must not import the noun table that loads it.
   */
  commands(): Promise<CommandTree>;
  /** The --jq filter, compiled before the command runs (present whenever globals.jq is). */
  jq?: JqFilter;
}

export interface Deps extends BaseDeps {
  /** Results on stdout, progress and hints on stderr (commands/ui.ts), made on first use. */
  readonly ui: UI;
  /** Profiles and session keys (SERVICE_CLI_CONFIG_DIR or the OS config folder), opened on first use. */
  store(): Promise<Store>;
  /**
   * The profile this command acts on: --profile, then SERVICE_PROFILE, then the current one. A named
   * profile that does not exist is a UsageError with a suggestion, unless `create` (config set).
   */
  profile(options?: { create?: boolean }): Promise<SelectedProfile>;
  /**
   * The API client for that profile (flags, then environment, then the profile); the store is
   * opened only when flags and environment leave something for the profile to supply. `--verbose`
   * logs method, path, status and timing to stderr, never headers or bodies.
   */
  client(): Promise<ApiClient>;
}

const HOOKED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Loads a module and removes the signal listeners its dependencies added. conf's atomic writer
 * (atomically → when-exit) listens for SIGINT/SIGTERM and then sends the signal to the process
 * again: the first Ctrl-C then looks like a second one, and a server (`webhook listen`, `emulator
 * start`) exits 130 before it can stop cleanly. The store removes its own abandoned temp files.
 */
async function withoutSignalHooks<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(HOOKED_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const loaded = await load();
  for (const signal of HOOKED_SIGNALS) {
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
  }
  return loaded;
}

/** Makes the value on the first call and returns the same promise afterwards. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** Gives `deps` a `ui` for its streams and globals, made on first use. */
function withUI<T extends BaseDeps>(deps: T): T & { readonly ui: UI } {
  let ui: UI | undefined;
  return Object.defineProperty(deps as T & { readonly ui: UI }, 'ui', {
    get: () => (ui ??= createUI(deps)),
    enumerable: true,
    configurable: true,
  });
}

/**
 * `deps` writing to other streams or under other globals (the demo captures a command's stdout as
 * JSON), with a ui of their own: a spread would carry the ui made for the old ones.
 */
export function redirected(deps: Deps, change: Partial<Pick<BaseDeps, 'io' | 'globals'>>): Deps {
  return withUI({ ...deps, ...change });
}

/** Adds the lazily made ui, store, profile and client to `base`. */
export function withStoreAndClient(base: BaseDeps): Deps {
  const store = once(async () => {
    const opened = (await withoutSignalHooks(() => import('../src/store/store.js'))).openStore({ env: base.env });
    // Repairs (looser permissions tightened) are said once, when they happen.
    for (const note of opened.notes) base.io.stderr.write(`Warning: ${note}\n`);
    return opened;
  });
  // The name is chosen once; what the profile holds is read afresh, as a command may have just
  // changed it (the demo logs in, then refreshes, with one Deps).
  const profileName = once(async () => {
    const [opened, { selectProfileName }] = await Promise.all([store(), import('../src/store/resolve.js')]);
    return selectProfileName(opened, base.env, base.globals.profile);
  });
  // A profile named by --profile or SERVICE_PROFILE must exist (a typo would act on an empty one),
  // except where a command creates it (config set); the store's current profile needs no check.
  const named = base.globals.profile ?? (base.env.SERVICE_PROFILE?.trim() || undefined);
  const profile = async (options: { create?: boolean } = {}) => {
    const [opened, name, { selectProfile }] = await Promise.all([
      store(),
      profileName(),
      import('../src/store/resolve.js'),
    ]);
    if (named !== undefined && !options.create && opened.getProfile(name) === undefined) {
      const { unknownProfileError } = await import('./config/known-profile.js');
      throw unknownProfileError(
        name,
        Object.keys(opened.listProfiles()),
        base.globals.profile !== undefined ? '--profile' : 'SERVICE_PROFILE',
      );
    }
    return selectProfile(opened, base.env, name);
  };
  const client = once(async () => {
    const [{ resolveEndpoint }, { createClient }] = await Promise.all([
      import('../src/store/resolve.js'),
      import('../src/http/client.js'),
    ]);
    const endpoint = await resolveEndpoint(base.env, { baseUrl: base.globals.baseUrl }, profile);
    const log = base.globals.verbose
      ? (e: HttpLogEntry) =>
          deps.ui.info(`→ ${e.method} ${e.path}${e.query} ${e.status ?? e.error ?? ''} (${Math.round(e.ms)} ms)`)
      : undefined;
    const { maxResponseBytes, timeoutMs } = await import('./timeout.js');
    return createClient({
      ...endpoint,
      log,
      env: base.env,
      timeoutMs: timeoutMs(base.globals.timeout, base.env),
      maxResponseBytes: maxResponseBytes(base.env),
      allowInsecureHttp: base.globals.allowInsecureHttp || base.env.SERVICE_ALLOW_INSECURE_HTTP === '1',
    });
  });
  const deps = withUI({ ...base, store, profile, client });
  return deps;
}

/** True in a CI environment (the CI variable set to anything but "false"/"0"). */
export function isCI(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * Prompts only when stdin and stdout are terminals, --no-input is absent and we are not in CI;
 * otherwise a missing value is a usage error that names the flag to pass.
 */
export function canPrompt(deps: Pick<Deps, 'io' | 'globals' | 'env'>): boolean {
  return deps.io.stdinIsTTY && deps.io.stdoutIsTTY && deps.globals.input && !isCI(deps.env);
}

// Kept in colors.ts, which the command root loads too (its parse errors are coloured alike).
export { decideColor };

export const systemClock: Clock = {
  now: () => Date.now(),
};

/**
 * The prompter backed by @inquirer/prompts, loaded only when a question is actually asked.
 * Questions go to stderr, like progress, so stdout carries only results even on a terminal.
 */
function inquirerPrompter(io: Pick<IOStreams, 'stdin' | 'stderr'>, signal?: AbortSignal): Prompter {
  // Made per question: reading io.stdin builds the stdin stream, which most commands never need.
  const context = () => ({ input: io.stdin, output: io.stderr, signal });
  // inquirer marks an answered question with a green tick; an answer is not a success (a wrong OTP
  // would read as accepted), and ✓/✗ belong to outcomes only (commands/ui.ts GLYPH).
  const theme = { prefix: { idle: '?', done: '›' } };
  return {
    async input(q) {
      const { input } = await import('@inquirer/prompts');
      return input({ message: q.message, default: q.default, validate: q.validate, theme }, context());
    },
    async password(q) {
      const { password } = await import('@inquirer/prompts');
      return password(
        { message: q.message, mask: q.mask === false ? undefined : '*', validate: q.validate, theme },
        context(),
      );
    },
    async confirm(q) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message: q.message, default: q.default, theme }, context());
    },
  };
}

/** Deps for the real process. */
export function createDeps(
  globals: GlobalOptions,
  signal: AbortSignal,
  commands: () => Promise<CommandTree>,
  jq?: JqFilter,
): Deps {
  const env = process.env;
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const io: IOStreams = {
    // A getter: process.stdin builds its stream on first access, which for a file or /dev/null
    // loads fs streams, fs/promises and readline (a few ms); most commands never read stdin.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: node:tty (and the stream modules it brings) loads only for a command that asks,
    // to prompt or to refuse a missing pipe; most never do.
    get stdinIsTTY() {
      return process.getBuiltinModule('node:tty').isatty(0);
    },
    stdoutIsTTY,
    stderrIsTTY,
    colorEnabled: decideColor(globals, env, stdoutIsTTY),
    stderrColorEnabled: decideColor(globals, env, stderrIsTTY),
  };
  return withStoreAndClient({
    io,
    env,
    globals,
    prompter: inquirerPrompter(io, signal),
    clock: systemClock,
    signal,
    commands,
    ...(jq && { jq }),
  });
}
