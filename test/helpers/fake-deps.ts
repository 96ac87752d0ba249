/**
 * Deps for calling a command's run() in-process: captured stdout/stderr, a scripted prompter,
 * a chosen TTY-ness and environment, and the real store and client (the store lives in
 * env.SERVICE_CLI_CONFIG_DIR). Use with a real server (the emulator) for the other side.
 */
import { PassThrough, Readable } from 'node:stream';
import type { Deps, GlobalOptions, Prompter } from '../../commands/deps.js';
import { systemClock, withStoreAndClient } from '../../commands/deps.js';
import { compileJq } from '../../commands/jq/compile.js';
import { tempDir } from './temp-dir.js';

export interface FakeDeps extends Deps {
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Questions the prompter was asked, in order. */
  asked: string[];
}

export interface FakeDepsOptions {
  globals?: Partial<GlobalOptions>;
  env?: NodeJS.ProcessEnv;
  tty?: boolean;
  stdin?: string;
  /** Answers the prompter gives, in order; a function answers by message. */
  answers?: Array<string | boolean> | ((message: string) => string | boolean);
  signal?: AbortSignal;
}

/**
 * The environment the command sees: the test's, with a store folder of its own (removed with the
 * test file's temporary folders) when the test names none, neither directly nor through a home of
 * its own. Without it the store would fall back to the real home (os.homedir()): a test must never
 * read or write the user's own config.
 */
function envWithStore(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const named = [env.SERVICE_CLI_CONFIG_DIR, env.HOME, env.XDG_CONFIG_HOME, env.APPDATA].some((v) => v);
  return named ? { ...env } : { ...env, SERVICE_CLI_CONFIG_DIR: tempDir('svc-fake-deps-') };
}

function capture(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export function fakeDeps(options: FakeDepsOptions = {}): FakeDeps {
  const out = capture();
  const err = capture();
  const tty = options.tty ?? false;
  const asked: string[] = [];
  const queue = Array.isArray(options.answers) ? [...options.answers] : [];
  const answer = (message: string): string | boolean => {
    asked.push(message);
    if (typeof options.answers === 'function') return options.answers(message);
    if (queue.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return queue.shift()!;
  };
  const prompter: Prompter = {
    input: async (q) => String(answer(q.message)),
    password: async (q) => String(answer(q.message)),
    confirm: async (q) => Boolean(answer(q.message)),
  };
  const globals: GlobalOptions = {
    json: false,
    input: true,
    yes: false,
    verbose: false,
    color: false,
    ...options.globals,
    allowInsecureHttp: options.globals?.allowInsecureHttp ?? false,
  };
  const deps = withStoreAndClient({
    io: {
      stdin: Readable.from(options.stdin !== undefined ? [Buffer.from(options.stdin)] : []),
      stdout: out.stream,
      stderr: err.stream,
      stdinIsTTY: tty,
      stdoutIsTTY: tty,
      stderrIsTTY: tty,
      colorEnabled: false,
      stderrColorEnabled: false,
    },
    env: envWithStore(options.env),
    globals,
    prompter,
    clock: systemClock,
    signal: options.signal ?? new AbortController().signal,
    // The real tree, as the command root gives it.
    commands: async () => {
      const [{ commandTree }, { OPERATIONS }] = await Promise.all([
        import('../../commands/command-tree.js'),
        import('../../commands/resources/table.js'),
      ]);
      return commandTree(OPERATIONS);
    },
    // As run-verb.ts does before a command runs.
    ...(globals.jq !== undefined && { jq: compileJq(globals.jq) }),
  });
  // Assigned, not spread: spreading would make deps.ui now, before a test could change the globals.
  return Object.assign(deps, { stdout: out.text, stderr: err.text, asked });
}
