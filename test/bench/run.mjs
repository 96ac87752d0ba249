// `npm run bench`: every benchmark in one run, on the built CLI (npm ci or npm test builds dist/).
// Figures only; nothing here passes or fails.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const benches = [
  ['Command latency against bare node (startup, store, one request, refresh)', 'commands.mjs', ['21']],
  ['Crypto hot paths', 'crypto.mjs', ['1']],
  ['Emulator: signed refresh flows over loopback', 'refresh-rate.mjs', []],
  ['Emulator: quote executions over loopback', 'quote-rate.mjs', []],
  ['Emulator: growth (customer creation rate and memory as the store grows to 60,000)', 'growth.mjs', []],
  ['Emulator: CPU per request with a --state file against in memory', 'emulator-ab.mjs', ['--memory-vs-state']],
  [
    'Emulator: CPU per request with the request check against without it',
    'emulator-ab.mjs',
    ['--without-request-check'],
  ],
  ['Webhook receiver against a bare node:http server', 'webhook-bench.mjs', []],
];

for (const [title, file, args] of benches) {
  console.log(`\n== ${title} (test/bench/${file})`);
  const r = spawnSync(process.execPath, [here(file), ...args], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`(exited ${r.status})`);
}
