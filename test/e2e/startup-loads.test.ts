/**
 * What the command root loads (README "Performance"): `svc --help` reads no bundle, and a verb's
 * `--help` must read the root bundle only, with no verb module and no HTTP or crypto library, whatever a later change
 * imports. Not timed: it checks which files and Node built-ins a spawned CLI loaded, and what the
 * build put into the root bundle (dist/cli/svc.meta.json, written by .ci/build.mjs).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SVC_BIN, runSvc, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { startEmulator } from '../../src/emulator/index.js';
import { emulatorEnv } from '../integration/commands/helpers.js';

/** Built-ins a request or a signature needs; the root must not load any of them. */
const HTTP_AND_CRYPTO_BUILTINS = ['http', 'https', 'http2', 'tls', 'crypto', 'zlib', 'undici'];

interface Loaded {
  files: string[];
  builtins: string[];
}

/** Runs the CLI with a preload that reports, at exit, every file required and every built-in loaded. */
function loadsOf(args: string[]): Loaded & { code: number | null; stdout: string } {
  const dir = tempConfigDir();
  const report = join(dir, 'loaded.json');
  const hook = join(dir, 'hook.cjs');
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({
  files: Object.keys(require.cache),
  builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)),
})));`,
  );
  const r = spawnSync(process.execPath, ['--require', hook, SVC_BIN, ...args], {
    env: svcEnv(dir),
    encoding: 'utf8',
  });
  const loaded = JSON.parse(readFileSync(report, 'utf8')) as Loaded;
  return {
    code: r.status,
    stdout: r.stdout,
    // bin/compile-cache.js is bin's own (Node 20's code cache), not the command tree.
    files: loaded.files
      .filter((f) => f !== hook)
      .map((f) => relative(REPO_ROOT, f))
      .filter((f) => f !== join('bin', 'compile-cache.js')),
    builtins: loaded.builtins,
  };
}

const meta = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'cli', 'svc.meta.json'), 'utf8')) as {
  inputs: string[];
  chunks: Record<string, string>;
};

/** The text of every bundle of dist/cli, the root, the verbs bundle and its modules of their own, together. */
function allBundles(): string {
  const cli = join(REPO_ROOT, 'dist', 'cli');
  return readdirSync(cli)
    .filter((file) => file.endsWith('.cjs') && file !== 'llhttp-wasm.cjs')
    .map((file) => readFileSync(join(cli, file), 'utf8'))
    .join('\n');
}

describe('the command root', () => {
  // A noun with resource commands (commands/resources/) reads their table too: a module of the
  // verbs bundle, of which it runs that module alone.
  const table = join('dist', 'cli', 'verbs.cjs');
  it("svc --help to a pipe prints the text the build wrote, loading no bundle; it is the command tree's own help", () => {
    const r = loadsOf(['--help']);
    expect(r.code).toBe(0);
    expect(r.files).toEqual([join('bin', 'svc.js')]);
    expect(loadsOf(['-h']).stdout).toBe(r.stdout);
    // With a global flag before it, the root builds the program and commander prints its help.
    const built = loadsOf(['--no-color', '--help']);
    expect(built.files).toContain(join('dist', 'cli', 'svc.cjs'));
    expect(r.stdout).toBe(built.stdout);
    expect(r.stdout).toMatch(
      /^Usage: svc \[options\] \[command\]\n[\s\S]*\n {2}sandbox {2,}[\s\S]*\n {2}-h, --help {2,}/,
    );
  });

  it.each([
    [['help'], []],
    [['session', 'refresh', '--help'], []],
    [['sandbox', '--help'], [table]],
    [['customers', 'create', '--help'], [table]],
    [['auth', 'sessions', 'list', '--help'], [table]],
  ])(
    'svc %j reads the root bundle (and the resource table %j) and nothing else: no verb chunk, no HTTP or crypto built-in',
    (args, extra) => {
      const r = loadsOf(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: svc');
      expect(r.files.sort()).toEqual(
        [join('bin', 'svc.js'), join('dist', 'cli', 'argv-words.cjs'), join('dist', 'cli', 'svc.cjs'), ...extra].sort(),
      );
      const forbidden = r.builtins.filter((b) =>
        HTTP_AND_CRYPTO_BUILTINS.some((name) => b === name || b.startsWith(`internal/${name}/`)),
      );
      expect(forbidden).toEqual([]);
      // commander's child_process (for executable subcommands, which svc has none of) is required
      // only if it spawns one: with it would come dgram, net and the stream modules.
      expect(r.builtins.filter((b) => ['child_process', 'dgram'].includes(b))).toEqual([]);
    },
  );

  it('is built from the verb specs and commander only', () => {
    const verbModules = new Set(Object.values(meta.chunks));
    expect(meta.inputs.filter((input) => verbModules.has(input))).toEqual([]);
    const libraries = new Set(meta.inputs.filter((i) => i.startsWith('node_modules/')).map((i) => i.split('/')[1]));
    expect([...libraries]).toEqual(['commander']);
    // The one part of src/ it holds: the emulator's option declarations, which `emulator start`
    // makes its flags from (src/emulator/options.ts), the UsageError their checks throw, and the
    // currency table --transaction-limits is checked against (2.5 kB of data).
    const optionDeclarations = /^src\/(errors|service\/currencies|emulator\/(.+\/)?options?)\.ts$/;
    expect(meta.inputs.filter((i) => i.startsWith('src/') && !optionDeclarations.test(i))).toEqual([]);
    expect(meta.inputs).toContain('src/emulator/options.ts');
  });

  it('gives every verb of the registry its own module in the verbs bundle', () => {
    const verbs = readFileSync(join(REPO_ROOT, 'dist', 'cli', 'verbs.cjs'), 'utf8');
    for (const verb of [
      'sandbox.fund',
      'session.refresh',
      'otp.verify',
      'emulator.start',
      'demo.run',
      'webhook.listen',
    ]) {
      expect(meta.chunks[verb]).toBeDefined();
      expect(verbs).toContain(`"./${verb}.cjs": function`);
    }
    // A verb run reads the root and the verbs bundle, whatever the verb (and the argv scanner,
    // which bin/svc.js names the verb's code cache by).
    const r = loadsOf(['keys', 'generate', '--json']);
    expect(r.code).toBe(0);
    expect(r.files.sort()).toEqual([
      join('bin', 'svc.js'),
      join('dist', 'cli', 'argv-words.cjs'),
      join('dist', 'cli', 'svc.cjs'),
      join('dist', 'cli', 'verbs.cjs'),
    ]);
  });

  it('reads the store without node:crypto: conf loads it only for the encryption svc never asks of it', () => {
    const r = loadsOf(['config', 'list']);
    expect(r.code).toBe(0);
    // It opened the store (conf, a module of the verbs bundle, read the profiles) and crypto stayed out.
    expect(r.files).toContain(join('dist', 'cli', 'verbs.cjs'));
    expect(r.builtins.filter((b) => b === 'crypto' || b.startsWith('internal/crypto/'))).toEqual([]);
  });

  it('signs with node:crypto alone: a stamp (as every signed request makes one) loads no webcrypto', () => {
    // noble's default random source is globalThis.crypto, which loads webcrypto on Node 20;
    // src/crypto/curve.ts gives it node:crypto's instead.
    const dir = tempConfigDir();
    const keyFile = join(dir, 'session.key');
    writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, {
      mode: 0o600,
    });
    const r = loadsOf(['keys', 'stamp', '--private-key-file', keyFile, '--payload', '{"amount":5}']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^[\w-]{100,}$/);
    expect(r.builtins).toContain('crypto');
    expect(
      r.builtins.filter((b) => b.startsWith('internal/crypto/webcrypto') || b === 'internal/crypto/webidl'),
    ).toEqual([]);
  });

  it('loads no Node built-in that only a rare path needs: a request, a refresh and its store writes load neither node:assert, node:tty nor node:os', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const configDir = tempConfigDir();
      const report = join(configDir, 'builtins.json');
      const hook = join(configDir, 'builtins.cjs');
      writeFileSync(
        hook,
        `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)))));`,
      );
      const builtinsOf = async (args: string[]) => {
        const r = await runSvc(args, { configDir, env: { ...emulatorEnv(emu), NODE_OPTIONS: `--require ${hook}` } });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        return JSON.parse(readFileSync(report, 'utf8')) as string[];
      };
      await builtinsOf(['otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000']);
      for (const args of [
        ['sandbox', 'fund', emu.fixtures.accountId, '--amount', '5'],
        ['session', 'refresh'],
        ['session', 'show'],
      ]) {
        const builtins = await builtinsOf(args);
        // A list of what loaded: the report is this run's (fund and refresh connect, show does not).
        expect(builtins.includes('http'), args.join(' ')).toBe(args[1] !== 'show');
        // conf compares the store it opens by node:assert (about 5 ms to load) unless the two are
        // plainly equal; stdin's terminal check and the home folder load node:tty and node:os only
        // when asked.
        expect(
          builtins.filter((b) => ['assert', 'tty', 'os'].includes(b)),
          args.join(' '),
        ).toEqual([]);
      }
    } finally {
      await emu.close();
    }
  });

  it('holds each library once, however many verbs use it (the package stays small as verbs are added)', () => {
    const bundles = allBundles();
    // CommonJS libraries keep their path in the bundle: undici's HTTP/1.1 client, conf, and commander
    // (in the root, which every command loads), once each.
    for (const once of [
      '"node_modules/undici/lib/dispatcher/client-h1.js"',
      '"node_modules/conf/dist/source/index.js"',
      '"node_modules/commander/lib/command.js"',
    ])
      expect(bundles.split(once).length - 1, once).toBe(1);
    // undici's WebAssembly parser (a large base64 string) once.
    expect(bundles.split('AGFzbQEAAAAB').length - 1).toBe(1);
  });

  it("leaves conf's schema validation and migration libraries out of the bundles (the store uses neither)", () => {
    const code = allBundles();
    for (const omitted of ['ajv', 'ajv-formats', 'semver', 'fast-uri'])
      expect(code.includes(`"node_modules/${omitted}/`), `the bundles have ${omitted}`).toBe(false);
  });
});
