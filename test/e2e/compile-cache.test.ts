/**
 * bin/compile-cache.js, V8's code cache for the CLI bundles, on every Node version: a run fills a
 * folder of the user's own, later runs use it, and a cache that does not fit (corrupt, or from
 * another build) only costs a recompile. Not timed.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SVC_BIN, runSvc, svcEnv, tempConfigDir } from '../helpers/spawn-svc.js';
import { startEmulator } from '../../src/emulator/index.js';
import { emulatorEnv } from '../integration/commands/helpers.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTunnelProxy } from '../helpers/tunnel-proxy.js';

/** A temporary folder for the runs (their TMPDIR), and the cache folder they fill inside it. */
function cacheFolder(): { tmp: string; dir: string } {
  const tmp = tempDir('svc-cache-test-');
  return { tmp, dir: join(tmp, `svc-compile-cache-${process.getuid!()}`) };
}

/** The cache files, sorted, each with its last write: an equal list later means nothing was rewritten. */
function caches(dir: string): { file: string; mtime: number }[] {
  return readdirSync(dir)
    .sort()
    .map((file) => ({ file, mtime: statSync(join(dir, file)).mtimeMs }));
}

/** The bundle each cache file is for. */
const bundles = (dir: string) => caches(dir).map(({ file }) => file.split('@')[0]);

/** A copy of the built CLI in `folder` (bin, package.json, dist/cli): an install of its own. Returns its folder. */
function installCopy(folder: string): string {
  const root = dirname(dirname(SVC_BIN));
  for (const part of ['bin', 'package.json', join('dist', 'cli')])
    cpSync(join(root, part), join(folder, part), { recursive: true });
  return folder;
}

/** Runs `svc keys generate --json` with its temporary folder (and so the cache) in `tmp`. */
function generate(tmp: string, bin = SVC_BIN): { code: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [bin, 'keys', 'generate', '--json'], {
    env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout };
}

describe.skipIf(typeof process.getuid !== 'function')('the code cache of the CLI bundles', () => {
  it('is written by the first run into a private folder, and a corrupt cache is replaced, not fatal', () => {
    const { tmp, dir } = cacheFolder();
    const first = generate(tmp);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toHaveProperty('publicKey');

    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(bundles(dir)).toEqual(['svc.cjs', 'verbs.cjs']);
    const written = caches(dir);
    for (const { file } of written) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);

    // A second run finds a cache V8 accepts, so it writes nothing.
    expect(generate(tmp).code).toBe(0);
    expect(caches(dir)).toEqual(written);

    // Garbage in the cache: V8 refuses it, the command still runs, and the cache is written anew.
    for (const { file } of written) writeFileSync(join(dir, file), 'not a code cache');
    const third = generate(tmp);
    expect(third.code).toBe(0);
    expect(JSON.parse(third.stdout)).toHaveProperty('privateKey');
    for (const { file } of written) expect(statSync(join(dir, file)).size).toBeGreaterThan(1000);
  });

  it("reads a command's modules of the verbs bundle alone, and the whole bundle where its index does not describe it", () => {
    const { tmp, dir } = cacheFolder();
    const install = installCopy(join(tmp, 'install'));
    const verbs = join(install, 'dist', 'cli', 'verbs.cjs');
    const size = statSync(verbs).size;
    // A preload that counts the bytes the run reads from the verbs bundle (every read goes through fs).
    const report = join(tmp, 'read.txt');
    const hook = join(tmp, 'count-reads.cjs');
    writeFileSync(
      hook,
      `const fs = require('node:fs'); const fds = new Set(); let bytes = 0;
const { openSync, readSync } = fs;
fs.openSync = (path, ...rest) => { const fd = openSync(path, ...rest); if (path === ${JSON.stringify(verbs)}) fds.add(fd); return fd; };
fs.readSync = (fd, ...rest) => { const n = readSync(fd, ...rest); if (fds.has(fd)) bytes += n; return n; };
const { closeSync } = fs; fs.closeSync = (fd) => { fds.delete(fd); closeSync(fd); };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(report)}, String(bytes)));`,
    );
    const run = () => {
      const r = spawnSync(
        process.execPath,
        ['--require', hook, join(install, 'bin', 'svc.js'), 'keys', 'generate', '--json'],
        {
          env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
          encoding: 'utf8',
        },
      );
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toHaveProperty('publicKey');
      return Number(readFileSync(report, 'utf8'));
    };
    const verbsCaches = () => readdirSync(dir).filter((file) => file.startsWith('verbs.cjs@'));

    // The modules `keys generate` can need, a small part of the bundle; its cache is named for
    // that part (`~` and a hash of its modules). The second run, from the cache, reads the same.
    const part = run();
    expect(part).toBeGreaterThan(1000);
    expect(part).toBeLessThan(size / 3);
    expect(verbsCaches()).toEqual([expect.stringMatching(/^verbs\.cjs@\w+-run-keys-generate~\w+-/)]);
    expect(run()).toBe(part);

    // An index of another build (its size is not the bundle's), or no index: the whole bundle.
    const index = join(install, 'dist', 'cli', 'verbs.index.json');
    const stale = JSON.parse(readFileSync(index, 'utf8'));
    writeFileSync(index, JSON.stringify({ ...stale, size: stale.size + 1 }));
    expect(run()).toBe(size);
    writeFileSync(index, 'not an index');
    expect(run()).toBe(size);
    // An index of another build of the same size (an install under way): the modules are not where
    // it says, which the first read finds, and the whole bundle is read instead.
    writeFileSync(index, JSON.stringify({ ...stale, ids: [...stale.ids].reverse() }));
    expect(run()).toBeGreaterThan(size);
  });

  it('takes a bundle of the same size and modification time but another file (an npm upgrade) as another build', () => {
    const { tmp, dir } = cacheFolder();
    const install = installCopy(join(tmp, 'install'));
    const bin = join(install, 'bin', 'svc.js');
    expect(generate(tmp, bin).code).toBe(0);
    const first = readdirSync(dir).filter((file) => file.startsWith('svc.cjs@'));
    // npm gives every file it installs the same modification time: a new file of the same length
    // and time must not be served the old file's compiled code (V8 checks only the length).
    const file = join(install, 'dist', 'cli', 'svc.cjs');
    const { atime, mtime } = statSync(file);
    const text = readFileSync(file);
    rmSync(file);
    writeFileSync(file, text);
    utimesSync(file, atime, mtime);
    expect(generate(tmp, bin).code).toBe(0);
    const second = readdirSync(dir).filter((name) => name.startsWith('svc.cjs@'));
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });

  it('is not used from a folder that others can write to', () => {
    const { tmp, dir } = cacheFolder();
    spawnSync('mkdir', ['-m', '777', dir]);
    expect(generate(tmp).code).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps one cache per install: two copies of the CLI run in turn do not evict each other', () => {
    const { tmp, dir } = cacheFolder();
    const copies = ['a', 'b'].map((name) => join(installCopy(join(tmp, name)), 'bin', 'svc.js'));
    for (const bin of copies) expect(generate(tmp, bin).code).toBe(0);
    // Each copy's two bundles, cached side by side.
    expect(bundles(dir).filter((bundle) => bundle === 'svc.cjs')).toHaveLength(2);
    const written = caches(dir);
    for (const bin of copies) expect(generate(tmp, bin).code).toBe(0);
    expect(caches(dir)).toEqual(written);
  });

  it("keeps one cache per Node version: a run that saves its own leaves another V8's in place", () => {
    const { tmp, dir } = cacheFolder();
    expect(generate(tmp).code).toBe(0);
    // The caches another Node version (another V8) wrote for the same install and command.
    const v8 = process.versions.v8;
    const ours = readdirSync(dir);
    const theirs = ours.map((file) => file.replace(`-${v8}-`, '-9.9.999.9-node.1-'));
    expect(theirs.every((file, i) => file !== ours[i])).toBe(true);
    for (const file of theirs) writeFileSync(join(dir, file), 'cache of another V8');
    // This version's caches are gone (an upgrade, a cleaned folder): the run compiles and saves again.
    for (const file of ours) rmSync(join(dir, file));
    expect(generate(tmp).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...ours, ...theirs].sort());
  });

  it("removes another install's caches once nothing rewrote them for 30 days, when a run saves its own", () => {
    const { tmp, dir } = cacheFolder();
    expect(generate(tmp).code).toBe(0);
    const old = join(dir, 'verbs.cjs@0badf00d-run-keys-generate-1-1-12.4-ok');
    const recent = join(dir, 'verbs.cjs@0badf00d-run-keys-stamp-1-1-12.4-ok');
    writeFileSync(old, 'cache of a removed install');
    writeFileSync(recent, 'cache of an install in use');
    const days = (n: number) => (Date.now() - n * 24 * 3600 * 1000) / 1000;
    utimesSync(old, days(31), days(31));
    utimesSync(recent, days(29), days(29));
    // A run that finds its cache saves nothing, and so looks at nothing else either.
    expect(generate(tmp).code).toBe(0);
    expect(readdirSync(dir)).toContain('verbs.cjs@0badf00d-run-keys-generate-1-1-12.4-ok');
    // Help compiles other code of the root: its run saves, and prunes.
    expect(
      spawnSync(process.execPath, [SVC_BIN, 'keys', '--help'], {
        env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
      }).status,
    ).toBe(0);
    expect(readdirSync(dir)).not.toContain('verbs.cjs@0badf00d-run-keys-generate-1-1-12.4-ok');
    expect(readdirSync(dir)).toContain('verbs.cjs@0badf00d-run-keys-stamp-1-1-12.4-ok');
    expect(bundles(dir).filter((bundle) => bundle === 'svc.cjs')).toHaveLength(2);
  });

  it("removes this install's caches of an earlier build when a run saves, and nothing it did not write", () => {
    const { tmp, dir } = cacheFolder();
    // An install of its own, rebuilt below.
    const install = installCopy(join(tmp, 'install'));
    const bin = join(install, 'bin', 'svc.js');
    const help = () =>
      spawnSync(process.execPath, [bin, 'keys', '--help'], {
        env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
      }).status;
    expect(generate(tmp, bin).code).toBe(0);
    expect(help()).toBe(0);
    const firstBuild = readdirSync(dir);
    expect(firstBuild).toHaveLength(3); // svc.cjs for help and for keys generate, verbs.cjs
    const folder = /@(\w+)-/.exec(firstBuild[0]!)![1];
    // What a build before it left (a shared chunk under its old name), and what the cache never
    // wrote: another install's, a name of another form, a file of someone else's.
    const earlierChunk = `chunk-0LDHASH.cjs@${folder}-run-sandbox-fund-1-1-${process.versions.v8}-ok`;
    const notOurs = [
      `chunk-0LDHASH.cjs@0badf00d-run-sandbox-fund-1-1-${process.versions.v8}-ok`,
      `chunk-0LDHASH.cjs@${folder}-run-sandbox-fund-1-1-${process.versions.v8}-ok.123.tmp`,
      `notes@${folder}-ok`,
      'notes.txt',
    ];
    for (const name of [earlierChunk, ...notOurs]) writeFileSync(join(dir, name), 'x');

    // The rebuild: both bundles change. Help is not run again, yet its cache of the old root goes too.
    for (const bundle of ['svc.cjs', 'verbs.cjs']) {
      const file = join(install, 'dist', 'cli', bundle);
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    }
    expect(generate(tmp, bin).code).toBe(0);
    const left = readdirSync(dir);
    for (const name of [...firstBuild, earlierChunk]) expect(left).not.toContain(name);
    // Sorted, the files not ours come first: chunk-…, notes….
    expect(left.sort()).toEqual([
      ...notOurs.sort(),
      expect.stringMatching(/^svc\.cjs@\w+-run-keys-generate-/),
      expect.stringMatching(/^verbs\.cjs@\w+-run-keys-generate-/),
    ]);
  });

  it('is written once by a command that connects through a proxy: the V8 flag it sets for the request is undone before the cache is saved', async () => {
    const emu = await startEmulator({ port: 0 });
    const proxy = await startTunnelProxy(Number(new URL(emu.baseUrl).port));
    try {
      const fund = async (env: NodeJS.ProcessEnv) =>
        (
          await runSvc(['sandbox', 'fund', emu.fixtures.accountId, '--amount', '5'], {
            env: { ...emulatorEnv(emu), ...env },
          })
        ).code;
      // A direct connection goes through node:http: the root and the verbs bundle, no HTTP library.
      const direct = cacheFolder();
      expect(await fund({ TMPDIR: direct.tmp })).toBe(0);
      expect(bundles(direct.dir)).toEqual(['svc.cjs', 'verbs.cjs']);

      // Through a proxy, undici (a file of its own) too, each cached once.
      const { tmp, dir } = cacheFolder();
      const proxied = {
        TMPDIR: tmp,
        HTTP_PROXY: proxy.url,
        SERVICE_BASE_URL: emu.baseUrl.replace(/^http:\/\/[^/]+/, 'http://api.service.invalid'),
        SERVICE_ALLOW_INSECURE_HTTP: '1',
      };
      expect(await fund(proxied)).toBe(0);
      expect(proxy.connects).toEqual(['api.service.invalid:80']);
      expect(bundles(dir)).toEqual([expect.stringMatching(/^chunk-\w+\.cjs$/), 'svc.cjs', 'verbs.cjs']);
      const written = caches(dir);
      expect(await fund(proxied)).toBe(0);
      expect(caches(dir)).toEqual(written);
    } finally {
      await proxy.close();
      await emu.close();
    }
  });

  it('keeps separate caches of the command root for help and for a command, which compile different parts of it', () => {
    const { tmp, dir } = cacheFolder();
    const help = () =>
      spawnSync(process.execPath, [SVC_BIN, 'keys', '--help'], {
        env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
      }).status;
    expect(help()).toBe(0);
    expect(generate(tmp).code).toBe(0);
    expect(bundles(dir).filter((bundle) => bundle === 'svc.cjs')).toHaveLength(2);
    // Each kind of run finds its own cache again: nothing is rewritten.
    const written = caches(dir);
    expect(help()).toBe(0);
    expect(generate(tmp).code).toBe(0);
    expect(caches(dir)).toEqual(written);
  });

  it('keeps a cache of the verbs bundle per command: all verbs share it, and each runs different functions of it', () => {
    const { tmp, dir } = cacheFolder();
    const stamp = () =>
      spawnSync(process.execPath, [SVC_BIN, 'keys', 'stamp', '--payload', '{}', '--private-key', '11'.repeat(32)], {
        env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
      }).status;
    expect(generate(tmp).code).toBe(0);
    expect(stamp()).toBe(0);
    const verbs = caches(dir).filter(({ file }) => file.startsWith('verbs.cjs@'));
    expect(verbs.map(({ file }) => /-run-(keys-[a-z]+)[~-]/.exec(file)?.[1])).toEqual(['keys-generate', 'keys-stamp']);
    // Each command finds its own cache again: nothing is rewritten.
    const written = caches(dir);
    expect(generate(tmp).code).toBe(0);
    expect(stamp()).toBe(0);
    expect(caches(dir)).toEqual(written);
  });

  it("keeps a failed run's cache (its error path) only until a run of the command succeeds", () => {
    const { tmp, dir } = cacheFolder();
    const stamp = (privateKey: string) =>
      spawnSync(process.execPath, [SVC_BIN, 'keys', 'stamp', '--payload', '{}', '--private-key', privateKey], {
        env: svcEnv(tempConfigDir(), { TMPDIR: tmp }),
      }).status;
    const kinds = () => caches(dir).map(({ file }) => `${file.split('@')[0]} ${file.split('-').pop()}`);

    // A run that fails still saves, apart; the next failing run uses that cache as it is.
    expect(stamp('not-a-key')).toBe(2);
    expect(kinds()).toEqual(['svc.cjs failed', 'verbs.cjs failed']);
    const failed = caches(dir);
    expect(stamp('not-a-key')).toBe(2);
    expect(caches(dir)).toEqual(failed);

    // The first run that succeeds replaces it with its own, which later runs keep.
    expect(stamp('11'.repeat(32))).toBe(0);
    expect(kinds()).toEqual(['svc.cjs ok', 'verbs.cjs ok']);
    const succeeded = caches(dir);
    expect(stamp('11'.repeat(32))).toBe(0);
    expect(stamp('not-a-key')).toBe(2);
    expect(caches(dir)).toEqual(succeeded);
  });
});
