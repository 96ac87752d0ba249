/**
 * Issue 36 item 7: every command the CLI can print in a message or hint works as written. The
 * commands are gathered from the source's string literals (hints/collect.ts), their placeholders
 * and `${…}` values filled with real ones by the flag or positional they stand in (below), and each
 * runs in bash against one emulator, on a copy of a logged-in config folder of its own. A command
 * passes when svc accepts its words: it does not exit 2 (usage or bad input) and commander names
 * no unknown command or option. Two exit-2 answers are a terminal's question asked where there is
 * none (the OTP code, a --yes for what cannot be undone): on a terminal the command goes on.
 * Servers (webhook listen, emulator start) pass once they run past the parse for a few seconds.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hintCommands, type HintCommand, type Word } from './hints/collect.js';
import { World } from './examples/world.js';
import { runSvc } from '../helpers/spawn-svc.js';
import { tempDir } from '../helpers/temp-dir.js';
import { generateKeyPair } from '../../src/crypto/keys.js';
import { mintSandboxToken, SANDBOX_IDENTITY } from '../../src/auth/oidc-token.js';

const world = new World();
let session = '';
beforeAll(async () => {
  await world.start();
  session = (await world.json(['session', 'show'])).id;
  writeFileSync(join(world.cwd, 'webhook.pem'), world.ready.webhookPublicKey);
  writeFileSync(join(world.cwd, 'stamp.key'), generateKeyPair().privateKey);
}, 180_000);
afterAll(() => world.stop(), 60_000);

/** The words so far, and the command's own config folder (for a value it makes there first). */
interface Context {
  words: string[];
  configDir: string;
}
type StandIn = (w: World, ctx: Context) => string | Promise<string>;
const fixture =
  (name: string): StandIn =>
  (w) =>
    w.ready.fixtures[name]!;
const app: StandIn = (w) => `http://${w.app.address}/webhooks`;

/** An ID token carrying the nonce of the client key `login oauth --nonce` keeps in this config folder. */
const idToken: StandIn = async (w, { configDir }) => {
  const r = await runSvc(['--json', 'login', 'oauth', '--credential', w.ready.fixtures.credentialId!, '--nonce'], {
    configDir,
  });
  const { nonce } = JSON.parse(r.stdout) as { nonce: string };
  return mintSandboxToken(SANDBOX_IDENTITY, { nowMs: Date.now(), nonce });
};

/** A value for `config set <key>`, by the key. */
const configValue: StandIn = (w, { words }) => {
  const key = words.at(-1);
  if (key === 'webhook-public-key') return '@webhook.pem';
  if (key === 'api-token-id') return w.ready.apiTokenId;
  if (key === 'api-client-secret') return w.ready.apiClientSecret;
  return w.ready.baseUrl;
};

/** What a placeholder after a flag stands for. */
const FLAG_VALUES: Record<string, StandIn> = {
  '--credential': fixture('credentialId'),
  '--account': fixture('accountId'),
  '--quote': fixture('quoteId'),
  '--currency': () => 'USD',
  '--type': () => 'INDIVIDUAL',
  '--amount': () => '1234',
  '--token': idToken,
  '--code': () => '000000',
  '--private-key-file': () => 'stamp.key',
  '--payload': () => 'hello',
  '--webhook-endpoint': app,
  '--sender': () => '$alice@example.com',
  '--receiver': fixture('umaAddress'),
  '--base-url': (w) => w.ready.baseUrl,
  '--profile': () => 'local',
  '--store': () => 'journal.jsonl',
  '--session': () => session,
};

/** What the n-th positional of a verb stands for, given the words before it. */
const POSITIONALS: Record<string, StandIn[]> = {
  'customers update': [fixture('customerId')],
  'cards reveal': [fixture('cardId')],
  'cards update': [fixture('cardId')],
  'quotes get': [fixture('quoteId')],
  'sandbox fund': [fixture('accountId')],
  'session refresh': [() => session],
  'session revoke': [() => session],
  'session use': [() => session],
  'credentials add': [() => 'email'],
  'credentials remove': [fixture('credentialId')],
  'auth delegated-keys revoke': [() => 'DelegatedKey:0b9f3c52-7d41-4e6a-9c1e-5a2f8d7b4e10'],
  'config use': [() => 'local'],
  'config delete': [() => 'local'],
  'config rename': [() => 'local', () => 'renamed'],
  'config set': [() => 'base-url', configValue],
  'config unset': [() => 'base-url'],
  'config get': [() => 'otp-signer'],
  trigger: [() => 'kyc.pending'],
  api: [() => 'GET', () => '/customers'],
};

/** Commands printed as a name in prose, not to be run as they stand; each with why. */
const NAMED_ONLY: Record<string, string> = {
  'svc keys encrypt-otp': 'names the command whose output holds the TEK',
  'svc completion --values ${kind}': "the completion script's own call, with the word being completed",
  'svc completion': 'the title of a completion script, "svc completion for bash"',
  'svc trigger': 'prose: "svc trigger only runs in the sandbox"',
  'svc webhook replay': 'prose: "`svc webhook replay` works only against…", "events to keep for `svc webhook replay`"',
};

/**
 * The command line with each placeholder filled by the stand-in for its slot; a `-` stays, its
 * value going to stdin (as a user types or pipes it).
 */
async function filled(command: HintCommand, configDir: string): Promise<{ line: string; stdin: string }> {
  const words: string[] = [];
  let stdin = '';
  for (const word of command.words) {
    if ('text' in word) {
      words.push(word.text);
      continue;
    }
    const value = await standInFor(word, command)(world, { words, configDir });
    if (word.shown === '-') stdin += `${value}\n`;
    words.push(word.shown === '-' ? '-' : value);
  }
  return { line: words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' '), stdin };
}

function standInFor(word: Extract<Word, { slot: unknown }>, command: HintCommand): StandIn {
  const standIn = 'flag' in word.slot ? FLAG_VALUES[word.slot.flag] : POSITIONALS[command.verb]?.[word.slot.positional];
  if (!standIn)
    throw new Error(
      `no stand-in for ${word.shown} in "${command.shown}" (${command.where[0]}): add one to FLAG_VALUES or POSITIONALS`,
    );
  return standIn;
}

interface Outcome {
  /** null: still running when its time was up (a server past its parse), then stopped. */
  code: number | null;
  stderr: string;
}

/** A copy of the world's config folder (without its emulator: a command may stop or start one). */
function ownFolder(): string {
  const own = tempDir('svc-hint-');
  cpSync(world.configDir, join(own, 'config'), { recursive: true });
  for (const f of ['emulator.pid', 'emulator.json', 'emulator.log']) rmSync(join(own, 'config', f), { force: true });
  return own;
}

/**
 * A server's default port is one for the whole machine, and other test files start servers at the
 * same time (the README's `svc webhook listen`): the servers here take a free port instead.
 */
function onFreePort(line: string): string {
  // The line's words are quoted ('emulator' 'start'): read without the quotes.
  const words = line.replace(/'/g, '');
  return /^(webhook listen|emulator start)\b/.test(words) && !/--port\b/.test(words) ? `${line} --port 0` : line;
}

/** Runs the line in bash in its own folder, then stops an emulator it left running there. */
async function run(own: string, line: string, stdin: string): Promise<Outcome> {
  const shell = world.shell(own);
  for (const f of ['webhook.pem', 'stamp.key']) cpSync(join(world.cwd, f), join(shell.cwd, f));
  const outcome = await new Promise<Outcome>((resolve) => {
    const child = spawn('bash', ['-c', `svc ${onFreePort(line)}`], {
      cwd: shell.cwd,
      env: shell.env,
      detached: true,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    let stderr = '';
    let stopped = false;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // gone already
      }
    };
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      // Its process group: a server and what it started.
      stopped = true;
      killGroup('SIGINT');
      setTimeout(() => killGroup('SIGKILL'), 5_000).unref();
    }, 8_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: stopped ? null : code, stderr });
    });
  });
  // A detached emulator the command started in its own folder.
  if (existsSync(join(own, 'config', 'emulator.pid')))
    await runSvc(['emulator', 'stop'], { configDir: join(own, 'config') });
  return outcome;
}

/** svc's refusals of the words themselves. */
const REFUSED_WORDS = /unknown (command|option)|too many arguments|missing required argument|argument missing/i;
/** A question a terminal would answer, asked without one. */
const ASKS_A_TERMINAL = /svc cannot (prompt|ask)/;

const commands = await hintCommands();

describe('every command a hint or message prints works as written', () => {
  it('the source prints many commands, each from a literal the test can read', () => {
    expect(commands.length).toBeGreaterThan(60);
    for (const c of commands) if (!NAMED_ONLY[c.shown]) for (const w of c.words) if (!('text' in w)) standInFor(w, c);
    // The names in prose that are not run must still be printed somewhere: a stale entry fails.
    for (const shown of Object.keys(NAMED_ONLY)) expect(commands.map((c) => c.shown)).toContain(shown);
  });

  for (const command of commands) {
    if (NAMED_ONLY[command.shown]) continue;
    it(`${command.shown}  (${command.where.join(', ')})`, async () => {
      const own = ownFolder();
      const { line, stdin } = await filled(command, join(own, 'config'));
      const r = await run(own, line, stdin);
      const why = `svc ${line}\n${r.stderr}`;
      expect(r.stderr, why).not.toMatch(REFUSED_WORDS);
      if (r.code === 2) expect(r.stderr, why).toMatch(ASKS_A_TERMINAL);
    }, 60_000);
  }
});
