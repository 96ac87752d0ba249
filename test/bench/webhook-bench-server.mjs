/**
 * One server of webhook-bench.mjs, in a process of its own (so the load generator does not share its
 * event loop, and its CPU time, threadpool included, can be read apart). Reports its port over IPC,
 * answers 'cpu' with process.cpuUsage() and the event loop's busy time (the main thread alone: what a
 * machine with cores to spare for the threadpool cannot absorb), and on 'stop' closes and reports
 * its receiver's stats.
 *
 *   kinds: bare | minimal | receiver | receiver-store | receiver-sync | receiver-noverify | listen | listen-store
 *
 * `listen` and `listen-store` are the real command, `svc webhook listen --json [--store FILE]`
 * (bin/svc.js) in a process of its own, printing every event to a pipe this process drains and
 * counts; its CPU is read from /proc (Linux), the main thread's apart. BENCH_CPU_PROF=DIR runs it under `node --cpu-prof`;
 * BENCH_LISTEN_ROOT=DIR runs another checkout's build instead (the bench's --baseline).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createPublicKey, verify } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../dist/src/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);

/** The control: reads the body and answers 200, nothing else. */
async function bare() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: async () => {
      server.close();
    },
  };
}

/**
 * The bar the listener is held to: the least a correct receiver does, written the obvious way with node alone.
 * node:http, the body collected, the signature header's base64 ECDSA verified with node:crypto
 * (synchronously), the id parsed and kept in a Set; 401 if it does not verify, 200 otherwise.
 */
async function minimal(publicKeyPem) {
  const key = { key: createPublicKey(publicKeyPem), dsaEncoding: 'der' };
  const seen = new Set();
  let events = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let ok = false;
      try {
        // The bare base64 the service sends (the older {"v":"1","s":…} form too, as the listener takes it).
        const header = req.headers['x-service-signature'];
        const sig = header.startsWith('{') ? JSON.parse(header).s : header;
        ok = verify('sha256', body, key, Buffer.from(sig, 'base64'));
      } catch {}
      if (!ok) {
        res.writeHead(401, { 'content-length': 0 });
        return res.end();
      }
      const { id } = JSON.parse(body);
      const duplicate = seen.has(id);
      if (!duplicate) {
        seen.add(id);
        events++;
      }
      const text = duplicate ? '{"received":true,"duplicate":true}' : '{"received":true}';
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': text.length,
      });
      res.end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: async () => {
      server.close();
      return { events };
    },
  };
}

/** The receiver `svc webhook listen` runs, verifying with the kind's verifier, dedupe in memory or on disk. */
async function receiver(kind, publicKeyPem) {
  const [{ createWebhookReceiver }, { openSeenIds }, { createWebhookVerifier, createAsyncWebhookVerifier }] =
    await Promise.all([load('webhook/receiver.js'), load('webhook/dedupe.js'), load('crypto/webhook-signature.js')]);
  // The seen-ids file's folder goes with the receiver (close), like the listener's below.
  const storeDir = kind === 'receiver-store' ? mkdtempSync(join(tmpdir(), 'svc-bench-')) : undefined;
  const storePath = storeDir && join(storeDir, 'seen.log');
  const dedupe = openSeenIds({ storePath });
  const verify =
    kind === 'receiver-sync'
      ? createWebhookVerifier(publicKeyPem)
      : kind === 'receiver-noverify'
        ? undefined
        : createAsyncWebhookVerifier(publicKeyPem);
  let events = 0;
  const r = await createWebhookReceiver({
    port: 0,
    verify,
    dedupe,
    onEvent: () => events++,
  });
  return {
    port: r.port,
    close: async () => {
      await r.close();
      await dedupe.close();
      if (storeDir) rmSync(storeDir, { recursive: true, force: true });
      return { events, ...r.stats };
    },
  };
}

/** User + system CPU (µs) of a process (every thread) or of one thread (`/proc/PID/task/TID`), from /proc (ticks of 10 ms). */
function cpuOf(path) {
  const stat = readFileSync(`${path}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    user: Number(fields[11]) * 10_000,
    system: Number(fields[12]) * 10_000,
  };
}

/** `svc webhook listen --json` as a user runs it: every event a JSON line on stdout (a pipe drained here). */
async function listen(kind, publicKeyPem) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-listen-'));
  // BENCH_LISTEN_ROOT: another checkout's build (an A/B of two versions in one run).
  const root = process.env.BENCH_LISTEN_ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
  const bin = join(root, 'bin', 'svc.js');
  const store = kind === 'listen-store' ? ['--store', join(dir, 'journal')] : [];
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  // BENCH_NODE_FLAGS: more node flags for it, e.g. --perf-basic-prof to name JS frames in `perf record`.
  if (process.env.BENCH_NODE_FLAGS) prof.push(...process.env.BENCH_NODE_FLAGS.split(' '));
  const args = [...prof, bin, '--json', 'webhook', 'listen', '--port', '0', '--public-key', publicKeyPem, ...store];
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NO_COLOR: '1',
      SERVICE_CLI_CONFIG_DIR: join(dir, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.on('close', resolve));
  let lines = 0;
  let first = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (first !== undefined) {
        first += chunk.toString('utf8');
        const end = first.indexOf('\n');
        if (end !== -1) {
          resolve(Number(new URL(JSON.parse(first.slice(0, end)).url).port));
          first = undefined;
        }
      }
    });
    void exited.then((code) => reject(new Error(`svc webhook listen exited ${code}: ${err}`)));
  });
  return {
    port,
    cpu: () => {
      // The main thread (its tid is the pid): the event loop's CPU, where a single-threaded receiver does everything.
      const main = cpuOf(`/proc/${child.pid}/task/${child.pid}`);
      return {
        ...cpuOf(`/proc/${child.pid}`),
        mainActiveMs: (main.user + main.system) / 1000,
      };
    },
    close: async () => {
      child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
      return { events: lines - 1 }; // the ready line is not an event
    },
  };
}

const [kind, publicKeyPem] = [process.argv[2], process.env.BENCH_KEY];
const server =
  kind === 'bare'
    ? await bare()
    : kind === 'minimal'
      ? await minimal(publicKeyPem)
      : kind.startsWith('listen')
        ? await listen(kind, publicKeyPem)
        : await receiver(kind, publicKeyPem);
process.send({ port: server.port });
process.on('message', async (m) => {
  // The command's own process: its CPU from /proc, the main thread's CPU standing for the event loop's busy time.
  if (m === 'cpu' && server.cpu) process.send({ cpu: server.cpu() });
  else if (m === 'cpu')
    process.send({
      cpu: {
        ...process.cpuUsage(),
        mainActiveMs: performance.eventLoopUtilization().active,
      },
    });
  if (m === 'stop') {
    process.send({ stopped: (await server.close()) ?? null });
    process.disconnect();
  }
});
