// CI's check of the package as users get it (.ci/run): `npm pack`, installed with
// `npm install --global --prefix <fresh folder> --omit=dev`, then run from that prefix: `svc --version`,
// `svc demo`, and a login and a refresh against `svc emulator start`, with the default store folder
// of a fresh HOME. Then the same on each other supported Node major (the `node-<os>-<cpu>` package of
// the npm registry, the binary the `node` package installs), with the end-to-end tests too.
//
// Usage: node .ci/package-check.mjs <results.json> [node majors…, default 22 24]
// Prints each check; writes {"passed": n, "failed": n} to results.json. Exits 1 when one failed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [resultsFile, ...majors] = process.argv.slice(2);
if (!resultsFile) {
  console.error('usage: node .ci/package-check.mjs <results.json> [node majors…]');
  process.exit(2);
}
const otherNodes = majors.length > 0 ? majors : ['22', '24'];
/** Size limits: what a user downloads and what lands on their disk. */
const MAX_TARBALL = 1.5e6;
const MAX_INSTALLED = 12e6;

const work = mkdtempSync(join(tmpdir(), 'svc-package-'));
const counts = { passed: 0, failed: 0 };

/** Counts and prints a check; the detail (a command's output) in full when it failed, else only a one-line one. */
function check(name, ok, detail = '') {
  counts[ok ? 'passed' : 'failed']++;
  const shown = ok ? (detail.includes('\n') ? '' : detail) : detail;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${shown ? `: ${shown}` : ''}`);
  return ok;
}

/** Runs a command to its end; its output, and the exit code (null when it had to be killed). */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000, ...options });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' };
}

/** The last lines of a failed command's output, for the log. */
const tail = (out) => out.trim().split('\n').slice(-15).join('\n');

/** Total size of the files under dir. */
function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
  return total;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--no-audit', '--no-fund', '--no-update-notifier'];

// 0. LICENSE and CHANGELOG.md are the repository's own top-level files, packed as they are (no copy at pack time).
const tracked = run('git', ['ls-files', '--', 'LICENSE', 'CHANGELOG.md'], { cwd: root }).stdout.split('\n').filter(Boolean);
check('LICENSE and CHANGELOG.md tracked at the top level', tracked.length === 2, tracked.join(' '));

// 1. The tarball (prepack builds it).
const pack = run(npm, ['pack', '--pack-destination', work, '--json'], { cwd: root });
let tarball;
try {
  tarball = join(work, JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0].filename);
} catch {
  check('npm pack', false, tail(pack.out));
}
if (tarball) {
  const size = statSync(tarball).size;
  check('tarball size', size <= MAX_TARBALL, `${(size / 1e6).toFixed(2)} MB (at most ${MAX_TARBALL / 1e6} MB)`);
  const files = run('tar', ['-tzf', tarball]).stdout.split('\n').filter(Boolean);
  for (const wanted of [
    'package/LICENSE',
    'package/CHANGELOG.md',
    'package/dist/cli/verbs.cjs.map',
    'package/dist/cli/verbs.index.json',
    'package/dist/cli/help.txt',
  ])
    check(`tarball has ${wanted.slice('package/'.length)}`, files.includes(wanted));
  // The one JSON file of dist/cli that runs: the verbs bundle's index (bin/compile-cache.js reads it).
  const unused = files.filter(
    (f) =>
      /^package\/dist\/(commands\/|src\/.*\.js$|\.tsbuildinfo|cli\/.*\.json$)/.test(f) &&
      f !== 'package/dist/cli/verbs.index.json',
  );
  check('tarball ships only what runs', unused.length === 0, unused.slice(0, 5).join(' '));
}

/** Checks the installed CLI with the node first on PATH: version, demo, emulator + login + refresh. */
async function checkInstalled(label, prefix, path) {
  const bin = join(prefix, 'bin', process.platform === 'win32' ? 'svc.cmd' : 'svc');
  const home = mkdtempSync(join(work, 'home-'));
  // A user's environment: a fresh HOME (so the default store folder), PATH, nothing of svc's.
  const env = { PATH: path, HOME: home, CI: 'true', NO_COLOR: '1', TMPDIR: tmpdir() };
  const svc = (args) => run(bin, args, { env, cwd: home });

  const version = svc(['--version']);
  const expected = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  check(`${label}: svc --version`, version.code === 0 && version.stdout.trim() === expected, tail(version.out));
  const demo = svc(['demo']);
  check(`${label}: svc demo`, demo.code === 0 && /All \d+ steps passed/.test(demo.out), tail(demo.out));

  // `svc emulator start` writes the `local` profile and makes it current, as the README's quick start.
  const emulator = spawn(bin, ['emulator', 'start', '--port', '0', '--json'], { env, cwd: home });
  let stderr = '';
  emulator.stderr.on('data', (d) => (stderr += d));
  try {
    const line = await new Promise((resolveLine, reject) => {
      const timer = setTimeout(() => reject(new Error(`no output in 60 s: ${stderr}`)), 60_000);
      createInterface({ input: emulator.stdout }).once('line', (l) => {
        clearTimeout(timer);
        resolveLine(l);
      });
      emulator.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const { fixtures } = JSON.parse(line);
    const login = await svcAsync(bin, ['otp', 'verify', '--credential', fixtures.credentialId, '--code', '000000'], env);
    check(`${label}: svc otp verify against svc emulator start`, login.code === 0, tail(login.out));
    const refresh = await svcAsync(bin, ['session', 'refresh'], env);
    check(`${label}: svc session refresh`, refresh.code === 0, tail(refresh.out));
    const store = join(home, '.config', 'service-cli');
    check(`${label}: store in ~/.config/service-cli`, readdirSync(join(store, 'sessions')).length > 0);
  } catch (error) {
    check(`${label}: svc emulator start`, false, error.message);
  } finally {
    const stopped = new Promise((done) => emulator.once('close', done));
    emulator.kill('SIGTERM');
    await stopped;
  }
}

/** Like run, but without blocking this process (the emulator's output is read meanwhile). */
function svcAsync(bin, args, env) {
  return new Promise((resolveRun) => {
    const child = spawn(bin, args, { env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolveRun({ code, out }));
  });
}

/** Installs the tarball into a fresh prefix as a user would, without dev dependencies; the prefix. */
function install(label, path) {
  const prefix = join(work, `prefix-${label}`);
  const r = run(npm, ['install', '--global', '--prefix', prefix, '--omit=dev', ...quiet, tarball], {
    env: { ...process.env, PATH: path },
  });
  if (!check(`${label}: npm install of the tarball`, r.code === 0, tail(r.out))) return undefined;
  const warnings = r.out.split('\n').filter((l) => /^npm warn/i.test(l));
  check(`${label}: no npm warning on install`, warnings.length === 0, warnings.join('\n'));
  return prefix;
}

if (tarball) {
  const prefix = install('node ' + process.versions.node, process.env.PATH);
  if (prefix) {
    const size = sizeOf(prefix);
    check('installed size', size <= MAX_INSTALLED, `${(size / 1e6).toFixed(2)} MB (at most ${MAX_INSTALLED / 1e6} MB)`);
    await checkInstalled(`node ${process.versions.node}`, prefix, process.env.PATH);
  }

  // 2. The other Node majors: the installed package, and the end-to-end tests of this checkout.
  for (const major of otherNodes) {
    const nodePrefix = join(work, `node${major}`);
    mkdirSync(nodePrefix);
    const os = process.platform === 'win32' ? 'win' : process.platform;
    const got = run(npm, ['install', '--global', '--prefix', nodePrefix, ...quiet, `node-${os}-${process.arch}@${major}`]);
    if (!check(`node ${major}: installed from the npm registry`, got.code === 0, tail(got.out))) continue;
    const nodeBin = join(nodePrefix, 'bin');
    const path = `${nodeBin}${delimiter}${process.env.PATH}`;
    const nodeVersion = run(join(nodeBin, 'node'), ['--version']).stdout.trim();
    const label = `node ${nodeVersion.slice(1)}`;
    const userPrefix = install(label, path);
    if (userPrefix) await checkInstalled(label, userPrefix, path);

    // The end-to-end tests (spawned CLIs against emulators), each a pass or a failure of its own.
    const results = join(work, `e2e-${major}.json`);
    const e2e = run(
      join(nodeBin, 'node'),
      [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'test/vitest.config.ts', 'test/e2e',
        '--reporter=dot', '--reporter=json', `--outputFile.json=${results}`],
      { cwd: root, env: { ...process.env, PATH: path }, timeout: 1_200_000 },
    );
    let report = {};
    try {
      report = JSON.parse(readFileSync(results, 'utf8'));
    } catch {}
    counts.passed += report.numPassedTests ?? 0;
    counts.failed += report.numFailedTests ?? 0;
    const broken = e2e.code !== 0 && !report.numFailedTests;
    console.log(
      `${e2e.code === 0 ? 'ok  ' : 'FAIL'} ${label}: end-to-end tests, ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed`,
    );
    // Each failed test by name with the first lines of its failure, then the runner's last lines.
    for (const file of report.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        const why = (test.failureMessages ?? []).join('\n').split('\n').slice(0, 6).join('\n    ');
        console.log(`  × ${relative(root, file.name)} > ${test.fullName}\n    ${why}`);
      }
    }
    if (e2e.code !== 0) console.log(tail(e2e.out));
    if (broken) counts.failed++; // a suite that did not run at all
  }
}

writeFileSync(resultsFile, JSON.stringify(counts));
rmSync(work, { recursive: true, force: true });
process.exit(counts.failed > 0 ? 1 : 0);
