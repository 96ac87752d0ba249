#!/usr/bin/env node
/**
 * Webhook receiver benchmark (a script, not a vitest test): verified events per second and latency
 * of `svc webhook listen --json` itself (its own process: verify, dedupe, print to a pipe; with
 * --store, journal) and of the receiver library under it, against a minimal verifying receiver
 * (node:http + node:crypto verify + a Set: the goal is the command at 1.2× it) and a bare node:http
 * server that only answers 200, on the same machine in the same run. Needs a build (`npm run build`).
 *
 *   node test/bench/webhook-bench.mjs [--burst 2000] [--slices 6] [--connections 16]
 *     [--servers listen,listen-store,receiver,…] [--clients raw,raw-pipelined,undici] [--baseline DIR]
 *
 * --baseline DIR adds the command as built in another checkout (an A/B in one run).
 *
 * Method. Every server variant runs in its own process (webhook-bench-server.mjs) and stays up; the
 * run is a series of slices, and in each slice every (client, server) pair gets one burst of
 * distinct, pre-signed deliveries, in an order that rotates from slice to slice, so load from other
 * work on the machine falls on every pair alike. Per pair: req/s over all its bursts, p50/p99
 * latency, and server and client CPU per request (CPU is what a contended machine distorts least).
 * Three load generators (webhook-bench-clients.mjs): an undici pool, raw keep-alive sockets, and raw
 * pipelined sockets; the raw ones cost the client a few µs a request, so the bare server, not the
 * client, sets the bare figure. Before measuring, each verifying server must answer a tampered
 * delivery 401 and a replay as a duplicate; after, each must have reported every delivery once.
 */
import { fork } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { prepare, rawClient, undiciClient } from './webhook-bench-clients.mjs';

const dist = new URL('../../dist/src/', import.meta.url);
const { generateWebhookKeyPair, signWebhookBody, createWebhookVerifier } = await import(
  new URL('crypto/webhook-signature.js', dist).href
);

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}
/** `--servers listen,listen-store` (kinds; bare and minimal always run), `--clients raw`: a shorter run. */
function listFlag(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : new Set(process.argv[i + 1].split(','));
}
const BURST = flag('burst', 2000);
const SLICES = flag('slices', 6);
const CONNECTIONS = flag('connections', 16);
const WARMUP = 1000;
const PATH = '/webhooks';
const CORES = availableParallelism();

// 'receiver' is what `svc webhook listen` runs, threadpool sized as commands/webhook/verbs.ts
// sizes it; the others show where the time goes.
const POOL = String(Math.max(2, CORES));
const LISTEN = 'svc webhook listen --json';
const LISTEN_STORE = 'svc webhook listen --json --store';
const RECEIVER = 'receiver library (no printing)';
const ALL_SERVERS = [
  { label: 'bare node:http', kind: 'bare' },
  { label: 'minimal verifying (http+crypto+Set)', kind: 'minimal' },
  // The command itself, in its own process, printing each event to a pipe: what the goal is about.
  { label: LISTEN, kind: 'listen' },
  { label: LISTEN_STORE, kind: 'listen-store' },
  { label: RECEIVER, kind: 'receiver', env: { UV_THREADPOOL_SIZE: POOL } },
  ...(POOL !== '4'
    ? [{ label: 'receiver, libuv default pool (4)', kind: 'receiver', env: { UV_THREADPOOL_SIZE: '4' } }]
    : []),
  { label: 'receiver --store (fsync)', kind: 'receiver-store', env: { UV_THREADPOOL_SIZE: POOL } },
  { label: 'receiver, verify on main thread', kind: 'receiver-sync', env: { UV_THREADPOOL_SIZE: POOL } },
  { label: 'receiver, no verify (dedupe only)', kind: 'receiver-noverify', env: { UV_THREADPOOL_SIZE: POOL } },
];
// --baseline DIR: the same two rows for another checkout's build (after `npm run build` there), interleaved.
const baselineAt = process.argv.indexOf('--baseline');
if (baselineAt !== -1) {
  const env = { BENCH_LISTEN_ROOT: process.argv[baselineAt + 1] };
  ALL_SERVERS.push(
    { label: `${LISTEN} (baseline)`, kind: 'listen', env },
    { label: `${LISTEN_STORE} (baseline)`, kind: 'listen-store', env },
  );
}
const onlyServers = listFlag('servers');
const SERVERS = ALL_SERVERS.filter(
  (s) => !onlyServers || ['bare', 'minimal'].includes(s.kind) || onlyServers.has(s.kind),
);
const onlyClients = listFlag('clients');
const ALL_CLIENTS = [
  { label: 'raw', make: (port) => rawClient(port, CONNECTIONS, 1) },
  { label: 'raw-pipelined', make: (port) => rawClient(port, Math.max(1, CONNECTIONS / 4), 4) },
  { label: 'undici', make: (port) => undiciClient(`http://127.0.0.1:${port}`, PATH, CONNECTIONS) },
];
const CLIENTS = ALL_CLIENTS.filter((c) => !onlyClients || onlyClients.has(c.label));

function startServer(server, publicKeyPem) {
  const script = fileURLToPath(new URL('webhook-bench-server.mjs', import.meta.url));
  const child = fork(script, [server.kind], { env: { ...process.env, ...server.env, BENCH_KEY: publicKeyPem } });
  const next = (key) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m && typeof m === 'object' && key in m) {
          child.off('message', on);
          resolve(m[key]);
        }
      };
      child.on('message', on);
    });
  return next('port').then((port) => ({
    ...server,
    port,
    /** Server CPU time in µs: `all` (user + system, every thread) and `main` (the event loop's busy time). */
    async cpu() {
      const reply = next('cpu');
      child.send('cpu');
      const { user, system, mainActiveMs } = await reply;
      return { all: user + system, main: mainActiveMs * 1000 };
    },
    async stop() {
      const reply = next('stopped');
      child.send('stop');
      const stats = await reply;
      await new Promise((resolve) => child.once('exit', resolve));
      return stats;
    },
  }));
}

/** Refuses to measure a receiver that does not verify or does not dedupe. */
async function sanityCheck(server, replay, privateKeyPem) {
  if (server.kind === 'bare') return;
  const url = `http://127.0.0.1:${server.port}${PATH}`;
  const post = async (body, signature) => {
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-service-signature': signature },
    });
    return { status: res.statusCode, body: await res.body.text() };
  };
  if (server.kind !== 'receiver-noverify') {
    const tampered = replay.body.replace('ACTIVE', 'FROZEN');
    const { status } = await post(tampered, signWebhookBody(replay.body, privateKeyPem));
    if (status !== 401) throw new Error(`${server.label}: a tampered delivery got ${status}, not 401`);
  }
  const again = await post(replay.body, replay.headers['x-service-signature']);
  if (again.status !== 200 || !again.body.includes('"duplicate":true'))
    throw new Error(`${server.label}: a replay was not a duplicate: ${again.status} ${again.body}`);
}

/** One tight loop of synchronous verifies: the CPU one verification costs, with warm caches. */
function verifyMicros(deliveries, publicKeyPem) {
  const check = createWebhookVerifier(publicKeyPem);
  const n = Math.min(3000, deliveries.length);
  for (let i = 0; i < 300; i++) check(Buffer.from(deliveries[i].body), deliveries[i].headers['x-service-signature']);
  const bodies = deliveries.slice(0, n).map((d) => [Buffer.from(d.body), d.headers['x-service-signature']]);
  const cpu0 = process.cpuUsage();
  for (const [body, header] of bodies)
    if (!check(body, header)) throw new Error('self-check: signature does not verify');
  const used = process.cpuUsage(cpu0);
  return (used.user + used.system) / n;
}

function percentile(sorted, p) {
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function main() {
  const perClient = WARMUP + SLICES * BURST;
  const total = CLIENTS.length * perClient;
  const keys = generateWebhookKeyPair();
  const privateKey = createPrivateKey(keys.privateKeyPem);
  process.stderr.write(`signing ${total} distinct deliveries…\n`);
  const deliveries = Array.from({ length: total }, () => {
    const body = JSON.stringify({
      id: `Webhook:${randomUUID()}`,
      type: 'CARD.STATE_CHANGE',
      timestamp: new Date().toISOString(),
      data: {
        id: `Card:${randomUUID()}`,
        cardholderId: `Customer:${randomUUID()}`,
        state: 'ACTIVE',
        brand: 'VISA',
        form: 'VIRTUAL',
        last4: '4242',
        fundingSources: [`InternalAccount:${randomUUID()}`],
      },
    });
    return prepare(body, signWebhookBody(body, privateKey), PATH);
  });
  const verifyCost = verifyMicros(deliveries, keys.publicKeyPem);

  const servers = [];
  for (const s of SERVERS) servers.push(await startServer(s, keys.publicKeyPem));
  const pairs = [];
  for (const server of servers) {
    for (const [c, client] of CLIENTS.entries()) {
      const own = deliveries.slice(c * perClient, (c + 1) * perClient); // distinct ids per client, so every one is verified and recorded
      pairs.push({
        server,
        client: client.label,
        driver: client.make(server.port),
        own,
        bursts: [],
        serverCpu: 0,
        serverMain: 0,
      });
    }
  }
  for (const pair of pairs) {
    const warm = await pair.driver.drive(pair.own.slice(0, WARMUP));
    if (warm.failures)
      throw new Error(`${pair.server.label} / ${pair.client}: ${warm.failures} non-200 answers in warm-up`);
  }
  for (const server of servers) await sanityCheck(server, deliveries[0], keys.privateKeyPem);

  for (let slice = 0; slice < SLICES; slice++) {
    for (let j = 0; j < pairs.length; j++) {
      const pair = pairs[(slice * 5 + j) % pairs.length]; // rotate the order from slice to slice
      const batch = pair.own.slice(WARMUP + slice * BURST, WARMUP + (slice + 1) * BURST);
      const cpu0 = await pair.server.cpu();
      const burst = await pair.driver.drive(batch);
      const cpu1 = await pair.server.cpu();
      pair.serverCpu += cpu1.all - cpu0.all;
      pair.serverMain += cpu1.main - cpu0.main;
      if (burst.failures) throw new Error(`${pair.server.label} / ${pair.client}: ${burst.failures} non-200 answers`);
      pair.bursts[slice] = burst;
    }
  }
  for (const pair of pairs) await pair.driver.close();
  for (const server of servers) {
    const stats = await server.stop();
    // Every distinct delivery once (the replay of the sanity check was a duplicate, not an event).
    if (stats && stats.events !== CLIENTS.length * perClient)
      throw new Error(`${server.label} reported ${stats.events} events for ${CLIENTS.length * perClient} deliveries`);
  }
  report(pairs, verifyCost);
}

function summarize(pair) {
  const n = SLICES * BURST;
  const all = new Float64Array(n);
  pair.bursts.forEach((b, i) => all.set(b.latencies, i * BURST));
  all.sort();
  const seconds = pair.bursts.reduce((sum, b) => sum + b.seconds, 0);
  const clientCpu = pair.bursts.reduce((sum, b) => sum + b.clientCpuMicros, 0);
  return {
    rps: Math.round(n / seconds),
    p50Ms: percentile(all, 50),
    p99Ms: percentile(all, 99),
    serverCpuUsPerReq: +(pair.serverCpu / n).toFixed(1),
    mainThreadUsPerReq: +(pair.serverMain / n).toFixed(1),
    clientCpuUsPerReq: +(clientCpu / n).toFixed(1),
    sliceRps: pair.bursts.map((b) => Math.round(BURST / b.seconds)),
  };
}

function report(pairs, verifyCost) {
  const results = {};
  for (const pair of pairs) (results[pair.client] ??= {})[pair.server.label] = summarize(pair);
  const lines = [];
  for (const { label: client } of CLIENTS) {
    const rows = results[client];
    const bare = rows['bare node:http'];
    lines.push(`\nclient: ${pairs.find((p) => p.client === client).driver.name}`);
    lines.push(
      `  ${'server'.padEnd(36)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'srv µs/req'.padStart(10)} ${'main µs/req'.padStart(11)} ${'cli µs/req'.padStart(10)}  of bare`,
    );
    for (const [label, r] of Object.entries(rows)) {
      r.ofBare = +(r.rps / bare.rps).toFixed(3);
      // Per slice, the same slice's bare figure: the spread shows how far one number can be trusted.
      r.sliceRatios = r.sliceRps.map((rps, i) => +(rps / bare.sliceRps[i]).toFixed(3));
      const spread =
        label === 'bare node:http'
          ? ''
          : `  (per slice: median ${(median(r.sliceRatios) * 100).toFixed(1)}%, ${(Math.min(...r.sliceRatios) * 100).toFixed(1)}–${(Math.max(...r.sliceRatios) * 100).toFixed(1)}%)`;
      lines.push(
        `  ${label.padEnd(36)} ${String(r.rps).padStart(7)} ${String(r.p50Ms).padStart(7)} ${String(r.p99Ms).padStart(7)} ${String(r.serverCpuUsPerReq).padStart(10)} ${String(r.mainThreadUsPerReq).padStart(11)} ${String(r.clientCpuUsPerReq).padStart(10)}  ${(r.ofBare * 100).toFixed(1).padStart(5)}%${spread}`,
      );
    }
  }
  const MINIMAL = 'minimal verifying (http+crypto+Set)';
  // Against the minimal receiver: per slice (the two ran back to back, in a rotating order), then the median.
  const ofMinimal = (label, client) => {
    const row = results[client][label];
    const bar = results[client][MINIMAL];
    if (!row) return undefined;
    const slices = row.sliceRps.map((rps, i) => rps / bar.sliceRps[i]);
    return {
      median: +median(slices).toFixed(3),
      min: +Math.min(...slices).toFixed(3),
      max: +Math.max(...slices).toFixed(3),
    };
  };
  const said = (r) => `${r.median.toFixed(2)}× (slices ${r.min.toFixed(2)}–${r.max.toFixed(2)})`;
  // The most any receiver could do here: every core verifying, nothing else (no HTTP, no client).
  const ceiling = Math.round((CORES * 1e6) / verifyCost);
  lines.push(
    `\none ECDSA P-256 verify (node:crypto, tight loop): ${verifyCost.toFixed(1)} µs CPU; ${CORES} cores doing nothing but verify: ${ceiling}/s`,
  );
  // The goal: the command (verify, dedupe, print; journal with --store) at least 1.2× the least a
  // correct verifying receiver does, median of the per-slice ratios.
  const figures = {};
  for (const label of [LISTEN, LISTEN_STORE, `${LISTEN} (baseline)`, `${LISTEN_STORE} (baseline)`, RECEIVER]) {
    const per = Object.fromEntries(CLIENTS.map(({ label: c }) => [c, ofMinimal(label, c)]).filter(([, r]) => r));
    if (Object.keys(per).length === 0) continue;
    figures[label] = per;
    // CPU a delivery (every thread), which a loaded machine distorts less than req/s: the minimal's over the row's.
    const cpu = Object.fromEntries(
      CLIENTS.filter(({ label: c }) => results[c][label]).map(({ label: c }) => [
        c,
        +(results[c][MINIMAL].serverCpuUsPerReq / results[c][label].serverCpuUsPerReq).toFixed(3),
      ]),
    );
    figures[label].cpuPerDelivery = cpu;
    lines.push(
      `${label} against the minimal verifying receiver (node:http + node:crypto verify + a Set), median of interleaved slices: ` +
        Object.entries(per)
          .filter(([c]) => c !== 'cpuPerDelivery')
          .map(([c, r]) => `${said(r)} (${c}; by CPU a delivery ${cpu[c].toFixed(2)}×)`)
          .join(', ') +
        (label === LISTEN || label === LISTEN_STORE ? '; goal ≥ 1.2×' : ''),
    );
  }
  process.stderr.write(lines.join('\n') + '\n');
  console.log(
    JSON.stringify({
      burst: BURST,
      slices: SLICES,
      connections: CONNECTIONS,
      cores: CORES,
      verifyCpuUs: +verifyCost.toFixed(1),
      verifyOnlyCeilingRps: ceiling,
      results,
      ofMinimal: figures,
      ofMinimalGoal: 1.2,
    }),
  );
}

await main();
