// Command wall times against bare `node -e 0`, in one interleaved run: the dispatch path alone
// (`session refresh --help`), a store-only command, and whole API commands against an emulator on
// 127.0.0.1 (dependency loading, requests, signing, store writes). Figures only.
// Usage: node test/bench/commands.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
const { startEmulator } = await import('../../dist/src/emulator/index.js');

const emu = await startEmulator({ port: 0 });
const env = { SERVICE_CLI_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-')), SERVICE_BASE_URL: emu.baseUrl, SERVICE_API_TOKEN_ID: emu.apiTokenId, SERVICE_API_CLIENT_SECRET: emu.apiClientSecret, CI: 'true' };

// The emulator shares this process's event loop, so children are spawned asynchronously (a
// spawnSync would freeze the server they talk to), one at a time.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timeOnce(args) {
  const start = process.hrtime.bigint();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...env } });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
  return Number(process.hrtime.bigint() - start) / 1e6;
}
await timeOnce([bin, 'otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000']);
const cases = [
  ['node -e 0', ['-e', '0']],
  ['svc session refresh --help', [bin, 'session', 'refresh', '--help']],
  ['svc session show', [bin, 'session', 'show']],
  ['svc sandbox fund', [bin, 'sandbox', 'fund', emu.fixtures.accountId, '--amount', '5']],
  ['svc session refresh', [bin, 'session', 'refresh']],
];
const times = cases.map(() => []);
for (let i = 0; i < runs; i++) for (const [j, [, args]] of cases.entries()) times[j].push(await timeOnce(args));
const base = median(times[0]);
for (const [j, [name]] of cases.entries()) {
  const m = median(times[j]);
  console.log(`${name.padEnd(28)} median ${m.toFixed(1).padStart(6)} ms   ${(m / base).toFixed(2)}x node`);
}
await emu.close();
