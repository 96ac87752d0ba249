/**
 * How long `svc emulator start` takes to its ready line, on the built CLI: wall time from spawn to
 * the JSON ready line on stdout, and the CPU time the process spent to get there (user + system,
 * read from /proc while it serves, so the figure holds on a loaded machine). Median of `runs`.
 * Not a test: run it after a build and read the figures. Given other built checkouts (an earlier
 * commit in a worktree), it times their `bin/svc.js` too, interleaved run by run with this one's, so
 * a machine's changing load falls on all of them alike.
 *
 *   npm run build && node test/bench/emulator-startup.mjs [runs=15] [checkout…]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const here = fileURLToPath(new URL('../..', import.meta.url));
const checkouts = [here, ...process.argv.slice(3)];
/** Clock ticks a second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

async function once(checkout) {
  const home = mkdtempSync(join(tmpdir(), 'svc-startup-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(checkout, 'bin', 'svc.js'), '--json', 'emulator', 'start', '--port', '0', '--no-profile'],
    {
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, SVC_CONFIG_DIR: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    const wallMs = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n') || out.trim().endsWith('}')) resolve(performance.now() - started);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code} before ready: ${out}`)));
    });
    return { wallMs, cpuMs: cpuMs(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = checkouts.map(() => []);
for (let i = 0; i < runs; i++) for (const [j, checkout] of checkouts.entries()) results[j].push(await once(checkout));
for (const [j, checkout] of checkouts.entries()) {
  const of = results[j];
  console.log(
    `emulator start to ready line (${checkout}, median of ${runs}): wall ${median(of.map((r) => r.wallMs)).toFixed(0)} ms, CPU ${median(of.map((r) => r.cpuMs)).toFixed(0)} ms`,
  );
}
