/**
 * One server of webhook-bench.mjs, in a process of its own (so the load generator does not share its
 * event loop, and its CPU time, threadpool included, can be read apart). Reports its port over IPC,
 * answers 'cpu' with process.cpuUsage() and the event loop's busy time (the main thread alone: what a
 * machine with cores to spare for the threadpool cannot absorb), and on 'stop' closes and reports
 * its receiver's stats.
 *
 *   kinds: bare | minimal | receiver | receiver-store | receiver-sync | receiver-noverify
 */
import { createServer } from 'node:http';
import { createPublicKey, verify } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
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
  const storePath = kind === 'receiver-store' ? join(mkdtempSync(join(tmpdir(), 'svc-bench-')), 'seen.log') : undefined;
  const dedupe = openSeenIds({ storePath });
  const verify =
    kind === 'receiver-sync'
      ? createWebhookVerifier(publicKeyPem)
      : kind === 'receiver-noverify'
        ? undefined
        : createAsyncWebhookVerifier(publicKeyPem);
  let events = 0;
  const r = await createWebhookReceiver({ port: 0, verify, dedupe, onEvent: () => events++ });
  return {
    port: r.port,
    close: async () => {
      await r.close();
      await dedupe.close();
      return { events, ...r.stats };
    },
  };
}

const [kind, publicKeyPem] = [process.argv[2], process.env.BENCH_KEY];
const server =
  kind === 'bare'
    ? await bare()
    : kind === 'minimal'
      ? await minimal(publicKeyPem)
      : await receiver(kind, publicKeyPem);
process.send({ port: server.port });
process.on('message', async (m) => {
  if (m === 'cpu')
    process.send({ cpu: { ...process.cpuUsage(), mainActiveMs: performance.eventLoopUtilization().active } });
  if (m === 'stop') {
    process.send({ stopped: (await server.close()) ?? null });
    process.disconnect();
  }
});
