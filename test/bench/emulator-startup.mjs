/**
 * How long `svc emulator start` takes to its ready line, on the built CLI: wall time from spawn to
 * the JSON ready line on stdout, and the CPU time the process spent to get there (user + system,
 * read from /proc while it serves, so the figure holds on a loaded machine). Median of `runs`.
 * Not a test: run it after a build and read the figures.
 *
 *   npm run build && node test/bench/emulator-startup.mjs [runs=15]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
/** Clock ticks a second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

async function once() {
  const home = mkdtempSync(join(tmpdir(), 'svc-startup-'));
  const started = performance.now();
  const child = spawn(process.execPath, [bin, '--json', 'emulator', 'start', '--port', '0', '--no-profile'], {
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, SVC_CONFIG_DIR: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
const results = [];
for (let i = 0; i < runs; i++) results.push(await once());
console.log(
  `emulator start to ready line (median of ${runs}): wall ${median(results.map((r) => r.wallMs)).toFixed(0)} ms, CPU ${median(results.map((r) => r.cpuMs)).toFixed(0)} ms`,
);
