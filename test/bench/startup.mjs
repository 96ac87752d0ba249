// Startup benchmark: `svc --version` and `svc --help` against bare `node -e 0`,
// interleaved in one run so machine noise hits all of them alike. Not a test: it prints figures.
// Usage: node test/bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const runs = Number(process.argv[2] ?? 40);

export const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'svc --version', args: [bin, '--version'] },
  { name: 'svc --help', args: [bin, '--help'] },
];

function timeOnce(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export function benchStartup(list = cases, n = runs) {
  const times = list.map(() => []);
  for (const c of list) timeOnce(c.args); // warm the file cache
  for (let i = 0; i < n; i++) list.forEach((c, j) => times[j].push(timeOnce(c.args)));
  const base = median(times[0]);
  return list.map((c, j) => ({ name: c.name, medianMs: median(times[j]), ratio: median(times[j]) / base }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of benchStartup()) {
    console.log(`${r.name.padEnd(16)} median ${r.medianMs.toFixed(1).padStart(6)} ms   ${r.ratio.toFixed(2)}x node`);
  }
}
