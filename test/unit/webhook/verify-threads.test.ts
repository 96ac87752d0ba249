/**
 * The listener's threaded verifier (src/webhook/verify-threads.ts): real worker threads and real
 * ECDSA P-256 signatures. Each answer must be its own delivery's, whichever batch and thread it went
 * in, and a verifier closed with batches out still answers every check (on the threadpool).
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { generateWebhookKeyPair, signWebhookBody } from '../../../src/crypto/webhook-signature.js';
import {
  createThreadedVerifier,
  verifyThreadCount,
  type ThreadedVerifier,
} from '../../../src/webhook/verify-threads.js';

const keys = generateWebhookKeyPair();
const other = generateWebhookKeyPair();
const key = createPublicKey(keys.publicKeyPem);

/** A delivery and whether it must verify: valid, tampered, signed by another key, garbled, JSON form, missing. */
function deliveries(n: number): Array<{ body: Buffer; header: string | undefined; ok: boolean }> {
  return Array.from({ length: n }, (_, i) => {
    const text = JSON.stringify({ id: `Webhook:${randomUUID()}`, n: i });
    const body = Buffer.from(text);
    const signature = signWebhookBody(text, keys.privateKeyPem);
    switch (i % 6) {
      case 0:
        return { body, header: signature, ok: true };
      case 1:
        return { body: Buffer.from(text.replace(`"n":${i}`, `"n":${i + 1}`)), header: signature, ok: false };
      case 2:
        return { body, header: signWebhookBody(text, other.privateKeyPem), ok: false };
      case 3:
        return { body, header: 'not base64!', ok: false };
      case 4:
        return { body, header: JSON.stringify({ v: '1', s: signature }), ok: true };
      default:
        return { body, header: undefined, ok: false };
    }
  });
}

const open: ThreadedVerifier[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});
function verifier(threads: number): ThreadedVerifier {
  const v = createThreadedVerifier(key, threads);
  open.push(v);
  return v;
}

describe('threaded webhook verifier', () => {
  it('answers each delivery of one batch with its own result, in any mix', async () => {
    const list = deliveries(60);
    const check = verifier(1);
    const results = await Promise.all(list.map((d) => check(d.body, d.header)));
    expect(results).toEqual(list.map((d) => d.ok));
  });

  it('answers right across turns and threads', async () => {
    const list = deliveries(120);
    const check = verifier(3);
    const pending: Array<Promise<boolean>> = [];
    for (let i = 0; i < list.length; i += 7) {
      for (const d of list.slice(i, i + 7)) pending.push(check(d.body, d.header));
      await new Promise((resolve) => setImmediate(resolve)); // the next turn: another batch, maybe another thread
    }
    expect(await Promise.all(pending)).toEqual(list.map((d) => d.ok));
  });

  it('closed with a batch out, still answers every check; after close, on the threadpool', async () => {
    const list = deliveries(30);
    const check = verifier(2);
    const pending = list.map((d) => check(d.body, d.header));
    await new Promise((resolve) => setImmediate(resolve)); // the batch is posted
    await check.close();
    expect(await Promise.all(pending)).toEqual(list.map((d) => d.ok));
    const later = deliveries(6);
    expect(await Promise.all(later.map((d) => check(d.body, d.header)))).toEqual(later.map((d) => d.ok));
  });

  it('uses a thread per core beyond the event loop, 1 to 4', () => {
    expect([1, 2, 3, 5, 16].map((cores) => verifyThreadCount(cores))).toEqual([1, 1, 2, 4, 4]);
  });
});
