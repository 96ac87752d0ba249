/**
 * The listener's signature checks, off the event loop and a batch at a time. An ECDSA P-256 verify
 * costs more CPU than everything else a delivery needs, so it runs on other threads; but handing
 * each delivery to libuv's threadpool (node:crypto verify with a callback) costs the event loop
 * about as much again as the rest of the delivery: a job, a thread woken, a completion woken back.
 * Here the deliveries read in one turn of the event loop go to a worker thread as one message (their
 * bodies and signatures packed in one transferred buffer) and come back as one: the event loop pays
 * per turn, not per delivery (test/bench/webhook-bench.mjs measures both).
 *
 * A worker that dies, or a verifier closed while batches are out, checks those batches again on the
 * threadpool: a delivery is never refused because a thread went away.
 */
import { verify as nodeVerify, type KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { signatureFromHeader } from '../crypto/webhook-signature.js';

/** One verifier thread per core beyond the event loop's, at least 1 and at most 4. */
export function verifyThreadCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

// Each worker: `ends` holds, per delivery, where its body ends and where its signature ends in `bytes`.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { verify } = require('node:crypto');
const key = { key: workerData.key, dsaEncoding: 'der' };
parentPort.on('message', ({ bytes, ends }) => {
  const ok = new Uint8Array(ends.length / 2);
  let start = 0;
  for (let i = 0; i < ok.length; i++) {
    const bodyEnd = ends[2 * i];
    const end = ends[2 * i + 1];
    try {
      ok[i] = verify('sha256', bytes.subarray(start, bodyEnd), key, bytes.subarray(bodyEnd, end)) ? 1 : 0;
    } catch {
      ok[i] = 0;
    }
    start = end;
  }
  parentPort.postMessage(ok, [ok.buffer]);
});
`;

interface Check {
  body: Uint8Array;
  signature: Buffer;
  resolve(ok: boolean): void;
}

interface Thread {
  worker: Worker;
  /** Batches posted and not yet answered, oldest first (a worker answers in order). */
  out: Check[][];
  dead: boolean;
}

export interface ThreadedVerifier {
  (body: Uint8Array, header: string | undefined): Promise<boolean>;
  /** Stops the threads; batches still out are checked on the threadpool. */
  close(): Promise<void>;
}

export function createThreadedVerifier(key: KeyObject, threads = verifyThreadCount()): ThreadedVerifier {
  const verifyKey = { key, dsaEncoding: 'der' as const };
  const onPool = (c: Check) =>
    nodeVerify('sha256', c.body, verifyKey, c.signature, (error, ok) => c.resolve(!error && ok));
  const pool: Thread[] = [];
  let queued: Check[] = [];
  let closed = false;

  const start = (): Thread => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { key } });
    const thread: Thread = { worker, out: [], dead: false };
    // Idle threads must not keep the process alive: a delivery being checked holds its socket open.
    worker.unref();
    worker.on('message', (ok: Uint8Array) => {
      const batch = thread.out.shift();
      if (batch) for (let i = 0; i < batch.length; i++) batch[i]!.resolve(ok[i] === 1);
    });
    const lost = () => {
      thread.dead = true;
      for (const batch of thread.out.splice(0)) for (const c of batch) onPool(c);
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    return thread;
  };
  for (let i = 0; i < threads; i++) pool.push(start());

  const flush = () => {
    const batch = queued;
    queued = [];
    // The live thread with the fewest batches out; none (all died, or closed): the threadpool.
    let thread: Thread | undefined;
    for (const t of pool) if (!t.dead && (thread === undefined || t.out.length < thread.out.length)) thread = t;
    if (thread === undefined || closed) {
      for (const c of batch) onPool(c);
      return;
    }
    let size = 0;
    for (const c of batch) size += c.body.length + c.signature.length;
    const bytes = new Uint8Array(size);
    const ends = new Uint32Array(batch.length * 2);
    let at = 0;
    batch.forEach((c, i) => {
      bytes.set(c.body, at);
      ends[2 * i] = at += c.body.length;
      bytes.set(c.signature, at);
      ends[2 * i + 1] = at += c.signature.length;
    });
    thread.out.push(batch);
    thread.worker.postMessage({ bytes, ends }, [bytes.buffer, ends.buffer]);
  };

  const verify = (body: Uint8Array, header: string | undefined): Promise<boolean> => {
    const signature = typeof header === 'string' ? signatureFromHeader(header) : undefined;
    if (signature === undefined) return Promise.resolve(false);
    return new Promise((resolve) => {
      // The first check of a turn schedules the batch: it leaves once the turn's requests are read.
      if (queued.length === 0) setImmediate(flush);
      queued.push({ body, signature, resolve });
    });
  };
  return Object.assign(verify, {
    async close() {
      closed = true;
      await Promise.all(pool.map((t) => t.worker.terminate()));
    },
  });
}
