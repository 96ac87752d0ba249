#!/usr/bin/env node
/**
 * Webhook receiver benchmark (not a vitest test): verified events per second and latency of
 * `createWebhookReceiver` (signature verification + dedupe on) against a bare node:http server that
 * only answers 200, on the same machine in the same run. Needs a build: `npx tsc -p tsconfig.json`.
 *
 *   node test/bench/webhook-bench.mjs [--requests 20000] [--concurrency 16] [--slices 10] [--store]
 *
 * Each server runs in its own child process (the load generator would otherwise share its event
 * loop); the client is an undici keep-alive pool. Every request carries a distinct, pre-signed
 * delivery, so each one is verified and recorded. Both servers stay up and take turns in short
 * bursts, so load from other work on the machine hits both alike; server CPU per request (from the
 * child's cpuUsage) is reported too, as contention does not distort it.
 */
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const dist = new URL('../../dist/src/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = process.argv[i + 1];
  return value === undefined || value.startsWith('--') ? true : value;
}

// ---- child: one server, reports its port over IPC, exits when the parent says so ----
async function serve(kind, publicKeyPem, storePath) {
  let close;
  if (kind === 'bare') {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-length': 0 });
        res.end();
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.send({ port: server.address().port });
    close = () => server.close();
  } else {
    const [{ createWebhookReceiver }, { openDedupeStore }, { createWebhookVerifier, createAsyncWebhookVerifier }] = await Promise.all([
      load('webhook/receiver.js'),
      load('webhook/dedupe.js'),
      load('crypto/webhook-signature.js'),
    ]);
    const dedupe = openDedupeStore({ storePath });
    let events = 0;
    // 'receiver' is what `svc webhook listen` runs; the others show where the time goes.
    const verify = {
      receiver: createAsyncWebhookVerifier(publicKeyPem),
      'receiver-sync': createWebhookVerifier(publicKeyPem),
      'receiver-noverify': undefined,
    }[kind];
    const receiver = await createWebhookReceiver({ port: 0, verify, dedupe, onEvent: () => events++ });
    process.send({ port: receiver.port });
    close = async () => {
      await receiver.close();
      await dedupe.close();
      process.send({ events, stats: receiver.stats });
    };
  }
  process.on('message', async (m) => {
    if (m === 'cpu') process.send({ cpu: process.cpuUsage() });
    if (m === 'stop') {
      await close();
      process.disconnect();
    }
  });
}

// ---- parent: load generator ----
function startServer(kind, publicKeyPem, storePath) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', kind], { env: { ...process.env, BENCH_KEY: publicKeyPem, BENCH_STORE: storePath ?? '' } });
  const nextMessage = (key) => new Promise((resolve) => {
    const on = (m) => {
      if (m && typeof m === 'object' && key in m) {
        child.off('message', on);
        resolve(m);
      }
    };
    child.on('message', on);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    nextMessage('port').then(({ port }) => {
      const origin = `http://127.0.0.1:${port}`;
      resolve({
        kind,
        pool: new Pool(origin, { connections: CONCURRENCY, pipelining: 1 }),
        /** Server CPU time (user + system, all its threads) in microseconds. */
        async cpu() {
          const reply = nextMessage('cpu');
          child.send('cpu');
          const { cpu } = await reply;
          return cpu.user + cpu.system;
        },
        async stop() {
          await this.pool.close();
          const report = kind === 'bare' ? undefined : nextMessage('events');
          child.send('stop');
          const last = await report;
          await new Promise((r) => child.once('exit', r));
          return last;
        },
      });
    });
  });
}

const CONCURRENCY = Number(flag('concurrency', 16));

/** Sends the deliveries with CONCURRENCY requests in flight; returns seconds taken and latencies (ms). */
async function drive(server, deliveries) {
  const latencies = new Float64Array(deliveries.length);
  let next = 0;
  let failures = 0;
  const started = process.hrtime.bigint();
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= deliveries.length) return;
      const d = deliveries[i];
      const t0 = process.hrtime.bigint();
      const res = await server.pool.request({ method: 'POST', path: '/webhooks', body: d.body, headers: d.headers });
      await res.body.dump();
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.statusCode !== 200) failures++;
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (failures) throw new Error(`${server.kind}: ${failures} non-200 answers`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, latencies };
}

function summarize(runs, cpuMicros) {
  const n = runs.reduce((sum, r) => sum + r.latencies.length, 0);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  const all = new Float64Array(n);
  let at = 0;
  for (const r of runs) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const pct = (p) => +all[Math.min(n - 1, Math.floor((p / 100) * n))].toFixed(2);
  return { rps: Math.round(n / seconds), p50Ms: pct(50), p99Ms: pct(99), serverCpuUsPerRequest: +(cpuMicros / n).toFixed(1) };
}

async function main() {
  const requests = Number(flag('requests', 20000));
  const slices = Number(flag('slices', 10));
  const withStore = flag('store', false) === true;
  const warmup = Math.min(3000, Math.floor(requests / 4));

  const { generateWebhookKeyPair, signWebhookBody } = await load('crypto/webhook-signature.js');
  const { createPrivateKey } = await import('node:crypto');
  const keys = generateWebhookKeyPair();
  const privateKey = createPrivateKey(keys.privateKeyPem);
  process.stderr.write(`signing ${warmup + requests} distinct deliveries…\n`);
  const deliveries = Array.from({ length: warmup + requests }, () => {
    const body = JSON.stringify({
      id: `Webhook:${randomUUID()}`,
      type: 'CARD.STATE_CHANGE',
      timestamp: new Date().toISOString(),
      data: { id: `Card:${randomUUID()}`, cardholderId: `Customer:${randomUUID()}`, state: 'ACTIVE', brand: 'VISA', form: 'VIRTUAL', last4: '4242', fundingSources: [`InternalAccount:${randomUUID()}`] },
    });
    return { body, headers: { 'content-type': 'application/json', 'x-service-signature': signWebhookBody(body, privateKey) } };
  });

  const kinds = ['bare', 'receiver', 'receiver-sync', 'receiver-noverify'];
  const servers = {};
  for (const kind of kinds) {
    const storePath = withStore && kind !== 'bare' ? join(mkdtempSync(join(tmpdir(), 'svc-bench-')), 'seen.log') : undefined;
    servers[kind] = await startServer(kind, keys.publicKeyPem, storePath);
    await drive(servers[kind], deliveries.slice(0, warmup));
  }

  // Short bursts in rotating order: load from other work on the machine hits every server alike.
  const runs = Object.fromEntries(kinds.map((k) => [k, []]));
  const cpuBefore = {};
  for (const kind of kinds) cpuBefore[kind] = await servers[kind].cpu();
  const size = Math.ceil(requests / slices);
  for (let i = 0; i < slices; i++) {
    const batch = deliveries.slice(warmup + i * size, warmup + (i + 1) * size);
    for (let j = 0; j < kinds.length; j++) {
      const kind = kinds[(i + j) % kinds.length];
      runs[kind].push(await drive(servers[kind], batch));
    }
  }
  const results = {};
  for (const kind of kinds) results[kind] = summarize(runs[kind], (await servers[kind].cpu()) - cpuBefore[kind]);
  for (const kind of kinds) {
    const report = await servers[kind].stop();
    if (report && report.events !== warmup + requests) throw new Error(`${kind} reported ${report.events} events for ${warmup + requests} deliveries`);
  }

  const ratio = (kind) => +(results[kind].rps / results.bare.rps).toFixed(3);
  console.log(JSON.stringify({ requests, concurrency: CONCURRENCY, slices, store: withStore, ...results, ratio: ratio('receiver'), goal: 0.6 }));
  for (const kind of kinds) {
    const r = results[kind];
    const share = kind === 'bare' ? '' : `  ${(ratio(kind) * 100).toFixed(1)}% of bare`;
    process.stderr.write(`${kind.padEnd(18)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  server CPU ${r.serverCpuUsPerRequest} µs/req${share}\n`);
  }
  process.stderr.write(`verified events/s with dedupe (as \`svc webhook listen\` runs): ${results.receiver.rps} = ${(ratio('receiver') * 100).toFixed(1)}% of bare (goal ≥ 60%)\n`);
}

if (process.argv[2] === '--serve') await serve(process.argv[3], process.env.BENCH_KEY, process.env.BENCH_STORE || undefined);
else await main();
