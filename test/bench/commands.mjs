// Command latency against bare `node -e 0`, in one interleaved run so machine noise hits every case
// alike: the startup-only calls (`--version`, `--help`), a store-only command, and whole API
// commands against an emulator on 127.0.0.1 (in a process of its own, so the bench's own event
// loop and heap are not in the commands' way), next to the floor for a one-request command (a
// one-shot node:http POST). Prints each median, its ratio to node and the goal, and on Linux the
// CPU time each case took (its mean over the runs, and its ratio to node's), which other work on
// the machine moves far less than the wall time: compare builds by it on a busy machine. Figures
// only, unless --gate; but a build whose commands exit 0 without doing their work gets no figure:
// each command's output is checked once before timing, every timed fund must have moved its money
// and every refresh made a session.
//
// --gate (.ci/run): exits 1 when a command's CPU-time ratio to node is more than GATE_MARGIN over
// its ceiling: its goal, or for a goal not met yet (PRESENT_LEVEL), the level it stands at today,
// so a slip from there fails while the goal is still being worked towards. CPU time, because a
// busy machine stretches wall time far more than the work a process does; the margin, so that
// noise alone does not fail CI while a real slip does.
//
// Usage: node test/bench/commands.mjs [runs] [--gate]
//   SVC_BEFORE=/other/checkout/bin/svc.js adds that build's commands to the same run, for a
//   before/after table; several builds as label=path,label=path (SVC_BEFORE=v1=/a/bin/svc.js,v2=…).
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prove, provedBench } from './proof.mjs';

const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
/** The other builds to time beside this one: [label, bin]. */
const before = (process.env.SVC_BEFORE ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => (entry.includes('=') ? entry.split('=') : ['before', entry]));
const args = process.argv.slice(2);
const gate = args.includes('--gate');
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
/** How far over its goal a CPU-time ratio may be before --gate fails (15%). */
const GATE_MARGIN = 1.15;
/**
 * Goals not met yet (issue 39): the CPU-time ratio each command stands at on this project's
 * machines (Node 20, 20 interleaved runs), the gate's ceiling until the goal is met. Lower a figure
 * as a change brings it down; delete it once the goal holds.
 */
const PRESENT_LEVEL = { 'svc sandbox fund': 1.5, 'svc session refresh': 1.75 };
const packageVersion = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

const emulator = fork(fileURLToPath(new URL('./commands-emulator.mjs', import.meta.url)));
process.on('exit', () => emulator.kill());
const emu = await new Promise((resolve) => emulator.once('message', resolve));
const configDirs = [];
const configDir = (label) => {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${label}-`));
  configDirs.push(dir);
  return dir;
};
process.on('exit', () => {
  for (const dir of configDirs) rmSync(dir, { recursive: true, force: true });
});
const apiEnv = {
  SERVICE_BASE_URL: emu.baseUrl,
  SERVICE_API_TOKEN_ID: emu.apiTokenId,
  SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
  CI: 'true',
  NO_COLOR: '1',
};

// One command at a time.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * CPU time (user + system, every thread) of the children this process has waited for, in ms, from
 * /proc/self/stat (Linux; undefined elsewhere). Its unit is the clock tick (10 ms), so a case's
 * figure is the mean over its runs, not one run's.
 */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime: fields 16 and 17 of stat
  } catch {
    return undefined;
  }
}
async function timeOnce(args, env) {
  const start = process.hrtime.bigint();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ...env } });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

// What `svc sandbox fund` sends, by hand: the floor for any command that makes one request.
const fundUrl = `${emu.baseUrl}/sandbox/internal-accounts/${encodeURIComponent(emu.fixtures.accountId)}/fund`;
const rawPost = `
const body = JSON.stringify({ amount: 5 });
const req = require('node:http').request(${JSON.stringify(fundUrl)}, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
    authorization: 'Basic ' + Buffer.from(${JSON.stringify(`${emu.apiTokenId}:${emu.apiClientSecret}`)}).toString('base64') },
}, (res) => { res.resume(); res.on('end', () => { process.exitCode = res.statusCode < 300 ? 0 : 1; }); });
req.end(body);`;

/**
 * The cases of one build: [name, args, env, goal, output]. Each gets its own store, logged in once;
 * `output` is what the command must print (checked once, untimed), so a build that exits 0 early
 * gets no figure. Goals are issue 39's, as ratios to `node -e 0`.
 */
async function casesOf(label, svc) {
  const env = { ...apiEnv, SERVICE_CLI_CONFIG_DIR: configDir(label) };
  await timeOnce([svc, 'otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'], env);
  const tag = label === 'after' ? '' : ` (${label})`;
  return [
    [`svc --version${tag}`, [svc, '--version'], env, 1.2, label === 'after' ? `${packageVersion}\n` : /^\d+\.\d+\.\d+/],
    [`svc --help${tag}`, [svc, '--help'], env, 1.2, /Usage: svc [\s\S]*sandbox[\s\S]*session/],
    [`svc session show${tag}`, [svc, 'session', 'show'], env, undefined, /Session:/],
    [`svc sandbox fund${tag}`, [svc, 'sandbox', 'fund', emu.fixtures.accountId, '--amount', '5'], env, 1.4, undefined],
    [`svc session refresh${tag}`, [svc, 'session', 'refresh'], env, 1.7, undefined],
  ];
}

/** The emulator's own view, read over HTTP: the fixture account's balance and its session count. */
async function serviceState() {
  const get = async (path) => {
    const res = await fetch(`${emu.baseUrl}${path}`, {
      headers: { authorization: emu.auth },
    });
    return res.json();
  };
  const account = await get(`/internal-accounts/${encodeURIComponent(emu.fixtures.accountId)}`);
  const sessions = await get(`/auth/sessions?accountId=${encodeURIComponent(emu.fixtures.accountId)}`);
  return { balance: account.balance.amount, sessions: sessions.data.length };
}

const start = await serviceState();
const ownCases = await casesOf('after', bin);
/**
 * Node 20 parses the CA file NODE_EXTRA_CA_CERTS names at every start (this project's machines set it
 * to the system bundle: about 40 ms of bare node's 95): a cost every case here pays alike, so it
 * shrinks every ratio. Shown as a case of its own, so the figures can be read without it.
 */
const WITHOUT_CA = 'node -e 0, no NODE_EXTRA_CA_CERTS';
const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS
  ? [[WITHOUT_CA, ['-e', '0'], { NODE_EXTRA_CA_CERTS: undefined }]]
  : [];
const cases = [
  ['node -e 0', ['-e', '0'], {}],
  ...extraCaCerts,
  ['node:http POST (floor)', ['-e', rawPost], {}],
  ...ownCases,
  ...(await Promise.all(before.map(([label, svc]) => casesOf(label, svc)))).flat(),
];
// Each command once, untimed: its output checked, the file cache and the code cache warmed.
await provedBench(async () => {
  for (const [name, args, env, , output] of cases) {
    const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    prove(r.status === 0, `${name} exited ${r.status}: ${r.stderr.slice(0, 300)}`);
    if (typeof output === 'string')
      prove(r.stdout === output, `${name} printed ${JSON.stringify(r.stdout.slice(0, 80))}`);
    else if (output) prove(output.test(r.stdout), `${name} did not print ${output}`);
  }
});
const times = cases.map(() => []);
const cpu = cases.map(() => 0);
for (let i = 0; i < runs; i++)
  for (const [j, [, args, env]] of cases.entries()) {
    const before = childrenCpuMs();
    times[j].push(await timeOnce(args, env));
    cpu[j] += childrenCpuMs() - before;
  }

// Each build logged in once (a session) and ran every case once to warm up and `runs` times timed;
// the node:http floor funds the same account as each build's `sandbox fund`.
const builds = 1 + before.length;
const end = await serviceState();
await provedBench(() => {
  const funds = 5 * (builds + 1) * (1 + runs); // the floor funds too
  prove(end.balance - start.balance === funds, `the fund runs moved ${end.balance - start.balance}, not ${funds}`);
  const made = builds * (2 + runs);
  prove(end.sessions - start.sessions === made, `${end.sessions - start.sessions} sessions were made, not ${made}`);
});

const base = median(times[0]);
const cpuShown = childrenCpuMs() !== undefined;
const cpuOf = (j) =>
  cpuShown ? `${(cpu[j] / runs).toFixed(1).padStart(6)} ms ${(cpu[j] / cpu[0]).toFixed(2).padStart(5)}x  ` : '';
console.log(`${'case'.padEnd(34)} ${'median'.padStart(9)}  ratio  ${cpuShown ? '   cpu   ratio  ' : ''} goal`);
// Each goal judged on the CPU-time ratio where this platform measures it, else on wall time; only
// this build's commands can fail the gate, not the SVC_BEFORE builds'.
const gated = new Set(ownCases.map(([name]) => name));
const slips = [];
for (const [j, [name, , , goal]] of cases.entries()) {
  const ms = median(times[j]);
  const ratio = ms / base;
  const judged = cpuShown ? cpu[j] / cpu[0] : ratio;
  let verdict = '';
  if (goal !== undefined) {
    const ceiling = Math.max(goal, PRESENT_LEVEL[name] ?? goal) * GATE_MARGIN;
    verdict = `≤${goal.toFixed(2)}x ${judged <= goal ? 'met' : judged <= ceiling ? `over (the gate fails above ${ceiling.toFixed(2)}x)` : 'OVER'}`;
    if (judged > ceiling && gated.has(name))
      slips.push(`${name}: ${judged.toFixed(2)}x, goal ${goal}x (the gate fails above ${ceiling.toFixed(2)}x)`);
  }
  console.log(
    `${name.padEnd(34)} ${ms.toFixed(1).padStart(6)} ms  ${ratio.toFixed(2).padStart(5)}x  ${cpuOf(j)}${verdict}`,
  );
}
console.log(
  `(${runs} interleaved runs, node ${process.version}; goals judged on ${cpuShown ? 'CPU time' : 'wall time'})`,
);
if (extraCaCerts.length > 0) {
  const j = cases.findIndex(([name]) => name === WITHOUT_CA);
  const without = cpuShown ? cpu[j] / runs : median(times[j]);
  const own = cpuShown ? cpu[0] / runs : base;
  console.log(
    `NODE_EXTRA_CA_CERTS is set: node reads that CA file at every start, ${(own - without).toFixed(1)} ms of bare node's ${own.toFixed(1)} ms (${cpuShown ? 'CPU' : 'wall'}); every case pays it, so each ratio without it is (case − ${(own - without).toFixed(1)}) / ${without.toFixed(1)} ms`,
  );
}
emulator.send('stop');
await new Promise((resolve) => emulator.once('exit', resolve));
if (gate && slips.length > 0) {
  console.error(
    `latency gate: ${slips.length === 1 ? 'a command is' : 'commands are'} more than 15% over the ceiling:\n  ${slips.join('\n  ')}`,
  );
  process.exit(1);
}
