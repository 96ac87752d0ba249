/**
 * The key store under concurrency, crashes and hostile folders, through the real CLI:
 * 16 logins at once on one config folder keep every session; a `session refresh` SIGKILLed after
 * the challenge (its signed retry on the wire, nothing stored yet) leaves the old key usable and the
 * store readable; the temp files of a writer killed mid-write are removed by the next svc (conf's at
 * once, unless a live writer holds the store lock); a corrupt
 * config.json or session file is named with the fix; a 0777 folder is
 * tightened and the user told; a folder owned by someone else (or a symlink to one) is refused.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { openStore } from '../../src/store/index.js';
import { sessionFileName } from '../../src/store/names.js';
import { originOf, recordingProxy, type RecordingProxy } from '../integration/auth/support.js';
import { runSvc, SVC_BIN, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { LARGE, printFigures, report } from './report.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The built lock module, as bin/svc runs it. */
const LOCK_FILE_MODULE = fileURLToPath(new URL('../../dist/src/lock-file.js', import.meta.url));

let emu: RunningEmulator;
/** A second service: the emulator keeps at most 10 open OTP challenges per credential, as the service may. */
let emu2: RunningEmulator;
let proxy: RecordingProxy;
beforeAll(async () => {
  [emu, emu2] = await Promise.all([startEmulator({ port: 0 }), startEmulator({ port: 0 })]);
  proxy = await recordingProxy(originOf(emu.baseUrl));
});
afterAll(async () => {
  await proxy.close();
  await Promise.all([emu.close(), emu2.close()]);
  printFigures();
});

const env = () => ({
  SERVICE_BASE_URL: proxy.baseUrl,
  SERVICE_API_TOKEN_ID: emu.apiTokenId,
  SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
});
const login = (configDir: string, on: RunningEmulator = emu) =>
  runSvc(['--json', 'otp', 'verify', '--credential', on.fixtures.credentialId, '--code', '000000'], {
    // Each service has its own profile (a profile pins its service's OTP signer).
    env:
      on === emu
        ? env()
        : {
            SERVICE_BASE_URL: on.baseUrl,
            SERVICE_API_TOKEN_ID: on.apiTokenId,
            SERVICE_API_CLIENT_SECRET: on.apiClientSecret,
            SERVICE_PROFILE: 'second',
          },
    configDir,
  });

describe('the key store', () => {
  it(
    '16 concurrent logins on one config folder keep every session',
    async () => {
      const rounds = LARGE ? 5 : 1;
      let tried = 0;
      let kept = 0;
      for (let r = 0; r < rounds; r++) {
        const configDir = tempConfigDir();
        // 8 logins on each of two services at the same moment, one config folder.
        openStore({ dir: configDir }).setProfile('second', {});
        const results = await Promise.all(Array.from({ length: 16 }, (_, i) => login(configDir, i % 2 ? emu2 : emu)));
        for (const x of results) expect(x.code, x.stderr).toBe(0);
        const ids = results.map((x) => (JSON.parse(x.stdout) as { id: string }).id);
        const store = openStore({ dir: configDir });
        const stored = ids.filter((id) => store.getSession(id) !== undefined);
        tried += ids.length;
        kept += stored.length;
        expect(readdirSync(join(configDir, 'sessions'))).toHaveLength(16);
        for (const f of readdirSync(join(configDir, 'sessions')))
          expect(statSync(join(configDir, 'sessions', f)).mode & 0o777).toBe(0o600);
      }
      report({
        suite: 'store',
        attack: '16 concurrent logins on one config folder',
        tried,
        survived: kept,
        lost: tried - kept,
      });
      expect(kept).toBe(tried);
    },
    LARGE ? 180_000 : 60_000,
  );

  it('SIGKILL in the middle of a refresh (after the challenge, before storing) leaves the old key usable', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).code).toBe(0);
    const old = openStore({ dir: configDir }).getProfile('default')!.activeSessionId!;
    const child = spawn(process.execPath, [SVC_BIN, 'session', 'refresh'], {
      env: svcEnv(configDir, env()),
      stdio: 'ignore',
    });
    const exited = new Promise<string | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    proxy.intercept = (s) => {
      // The challenge was answered; the signed retry is on the wire: the process dies here.
      if (s.path.endsWith('/refresh') && s.signed) child.kill('SIGKILL');
      return 'forward';
    };
    const signal = await exited;
    proxy.intercept = undefined;
    expect(signal).toBe('SIGKILL');
    const store = openStore({ dir: configDir }); // readable
    expect(store.getProfile('default')!.activeSessionId).toBe(old);
    expect(store.getSession(old)).toBeDefined();
    const again = await runSvc(['session', 'refresh'], { env: env(), configDir });
    report({
      suite: 'store',
      attack: 'SIGKILL mid-refresh, then refresh with the old key',
      tried: 1,
      survived: again.code === 0 ? 1 : 0,
      lost: again.code === 0 ? 0 : 1,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(openStore({ dir: configDir }).getProfile('default')!.activeSessionId).not.toBe(old);
  }, 60_000);

  it('a writer SIGKILLed between creating its temp file and the rename leaves it; the next svc removes it, not a live one', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).code).toBe(0);
    const sessionFile = join(configDir, 'sessions', readdirSync(join(configDir, 'sessions'))[0]!);
    const configFile = join(configDir, 'config.json');
    // Each child does what taking a store lock does first (lock-file.ts): creates its
    // pid-named temp file 0600. One is killed there, as a refresh killed mid-lock is; one lives on.
    const writer = (files: string[]) => {
      const child = spawn(
        process.execPath,
        [
          '-e',
          "const fs = require('node:fs'); for (const f of process.argv.slice(1)) fs.closeSync(fs.openSync(`${f}.${process.pid}.tmp`, 'w', 0o600)); process.stdout.write('ready'); setInterval(() => {}, 1e6);",
          ...files,
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
      return { child, ready, closed };
    };
    // Lock files are written to `<lock>.<pid>.tmp` and renamed into place (src/lock-file.ts).
    const tempFileFor = (file: string, pid: number | undefined) => `${file}.${pid}.tmp`;
    const killed = writer([`${sessionFile}.lock`, `${configFile}.lock`]);
    const alive = writer([`${configFile}.lock`]);
    await Promise.all([killed.ready, alive.ready]);
    killed.child.kill('SIGKILL');
    await killed.closed;
    const left = [
      tempFileFor(`${sessionFile}.lock`, killed.child.pid),
      tempFileFor(`${configFile}.lock`, killed.child.pid),
    ];
    const inFlight = tempFileFor(`${configFile}.lock`, alive.child.pid);
    for (const f of [...left, inFlight]) expect(statSync(f).size).toBe(0); // what a kill mid-write leaves
    try {
      const r = await runSvc(['session', 'show'], { env: env(), configDir });
      expect(r.code, r.stderr).toBe(0);
      const remaining = left.filter((f) => existsSync(f));
      report({
        suite: 'store',
        attack: 'temp files of a writer SIGKILLed mid-write, then the next svc',
        tried: left.length,
        survived: left.length - remaining.length,
        lost: remaining.length,
      });
      expect(remaining).toEqual([]);
      expect(existsSync(inFlight)).toBe(true); // a live writer's file is its own
      expect(
        openStore({ dir: configDir }).getSession(openStore({ dir: configDir }).getProfile('default')!.activeSessionId!),
      ).toBeDefined();
    } finally {
      alive.child.kill('SIGKILL');
      await alive.closed;
    }
  }, 60_000);

  it("conf's temp file of a write killed before its rename is removed by the next svc at once, not while a live writer holds the lock", async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).code).toBe(0);
    const rounds = LARGE ? 10 : 2;
    let left = 0;
    for (let r = 0; r < rounds; r++) {
      // A writer as the store's (lock.ts): it takes the store lock, then conf starts its write with
      // a temp file named as atomically names it; here it stops there, until killed.
      const writer = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const fs = await import('node:fs');
           const { tryLockFile } = await import(process.argv[1]);
           const dir = process.argv[2];
           if (!tryLockFile(dir + '/config.json.lock').acquired) process.exit(3);
           for (const file of [dir + '/config.json', dir + '/sessions/Session_3aNew.json']) {
             const temp = file + '.tmp-' + Date.now().toString().slice(-10) + 'a1b2c3';
             fs.writeFileSync(temp, '{"profiles":{"default":{"privateKey":"', { mode: 0o600 });
             process.stdout.write(temp + '\\n');
           }
           setInterval(() => {}, 1e6);`,
          pathToFileURL(LOCK_FILE_MODULE).href,
          configDir,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const closed = new Promise<void>((resolve) => writer.on('close', () => resolve()));
      let out = '';
      while (out.split('\n').length < 3)
        out += await new Promise<string>((resolve) => writer.stdout.once('data', (d: Buffer) => resolve(d.toString())));
      const temps = out.trim().split('\n');
      try {
        const during = await runSvc(['session', 'show'], { env: env(), configDir });
        expect(during.code, during.stderr).toBe(0);
        expect(temps.filter((f) => existsSync(f))).toEqual(temps); // the live writer's: about to be renamed
      } finally {
        writer.kill('SIGKILL');
        await closed;
      }
      const after = await runSvc(['session', 'show'], { env: env(), configDir });
      expect(after.code, after.stderr).toBe(0);
      left += temps.filter((f) => existsSync(f)).length;
    }
    report({
      suite: 'store',
      attack: 'conf temp files of a writer SIGKILLed before its rename, then the next svc',
      tried: rounds * 2,
      survived: rounds * 2 - left,
      lost: left,
    });
    expect(left).toBe(0);
    expect(readdirSync(configDir).filter((f) => f.includes('.tmp') || f.endsWith('.lock'))).toEqual([]);
  }, 60_000);

  it('a corrupt config.json or session file is named, with the fix', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).code).toBe(0);
    const id = openStore({ dir: configDir }).getProfile('default')!.activeSessionId!;
    const sessionFile = join(configDir, 'sessions', readdirSync(join(configDir, 'sessions'))[0]!);
    writeFileSync(sessionFile, '{"id": "' + id + '", "privateKey": ');
    const badSession = await runSvc(['session', 'show'], { env: env(), configDir });
    writeFileSync(join(configDir, 'config.json'), '{"profiles": [1,');
    const badConfig = await runSvc(['session', 'show'], { env: env(), configDir });
    let ok = 0;
    for (const [r, file] of [
      [badSession, sessionFile],
      [badConfig, join(configDir, 'config.json')],
    ] as const) {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(/corrupt/);
      expect(r.stderr).toMatch(/Fix or delete/);
      ok++;
    }
    report({
      suite: 'store',
      attack: 'corrupt config.json / session file named with the fix',
      tried: 2,
      survived: ok,
      lost: 2 - ok,
    });
  }, 60_000);

  it('one damaged session key file: session list marks it with its path and the fix, lists the others; session show works', async () => {
    const configDir = tempConfigDir();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await login(configDir)).code).toBe(0);
      ids.push(openStore({ dir: configDir }).getProfile('default')!.activeSessionId!);
    }
    const [damagedId, ...others] = ids;
    const file = join(configDir, 'sessions', `${sessionFileName(damagedId!)}.json`);
    writeFileSync(file, '{"id": "' + damagedId + '", "privateKey": '); // cut short, as a crash or a full disk leaves it
    const list = await runSvc(['--json', 'session', 'list'], { env: env(), configDir });
    const rows =
      list.code === 0
        ? (JSON.parse(list.stdout).data as Array<{ id: string; keyHeld: boolean; damagedKeyFile?: string }>)
        : [];
    const marked = rows.find((r) => r.id === damagedId)?.damagedKeyFile === file;
    const listed = others.filter((id) => rows.some((r) => r.id === id && r.keyHeld)).length;
    const show = await runSvc(['session', 'show'], { env: env(), configDir });
    report({
      suite: 'store',
      attack: 'one damaged session key file among three: session list, session show',
      tried: 3,
      survived: (marked ? 1 : 0) + listed,
      lost: 3 - ((marked ? 1 : 0) + listed),
      detail: `list exit ${list.code}, show exit ${show.code}`,
    });
    expect(list.code).toBe(0);
    expect(marked).toBe(true);
    expect(listed).toBe(others.length);
    expect(list.stderr).toContain(`rm '${file}'`);
    expect(show.code).toBe(0);
    rmSync(configDir, { recursive: true, force: true });
  }, 60_000);

  it('a 0777 config folder is tightened to 0700 and the user is told; a symlink to a folder of ours is followed', async () => {
    const configDir = tempConfigDir();
    mkdirSync(configDir, { recursive: true });
    chmodSync(configDir, 0o777);
    const r = await runSvc(['config', 'list'], { env: env(), configDir });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(r.stderr).toMatch(
      new RegExp(`Warning: ${configDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was 0777; made it 0700`),
    );
    const quiet = await runSvc(['config', 'list'], { env: env(), configDir });
    expect(quiet.stderr).not.toMatch(/was 0777/); // said once, when repaired

    const link = join(tempDir('svc-link-'), 'config');
    symlinkSync(configDir, link);
    const viaLink = await runSvc(['config', 'list'], { env: env(), configDir: link });
    expect(viaLink.code, viaLink.stderr).toBe(0);
    report({
      suite: 'store',
      attack: '0777 config folder tightened and said; own symlink followed',
      tried: 2,
      survived: 2,
      lost: 0,
    });
  }, 60_000);

  it.skipIf(process.getuid?.() === 0)(
    'a config folder owned by another user (here: a symlink to /) is refused, naming it',
    async () => {
      const link = join(tempDir('svc-link-'), 'config');
      symlinkSync('/', link); // root's folder: never ours
      const r = await runSvc(['config', 'list'], { env: env(), configDir: link });
      const ok =
        r.code !== 0 &&
        r.stderr.includes(link) &&
        /another user/.test(r.stderr) &&
        /SERVICE_CLI_CONFIG_DIR/.test(r.stderr);
      report({
        suite: 'store',
        attack: "config folder symlinked to another user's folder refused",
        tried: 1,
        survived: ok ? 1 : 0,
        lost: ok ? 0 : 1,
      });
      expect(r.stderr).toContain(link);
      expect(r.stderr).toMatch(/belongs to another user/);
      expect(r.code).not.toBe(0);
    },
    60_000,
  );
});
