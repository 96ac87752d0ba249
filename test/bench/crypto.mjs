// Hot-path crypto benchmark on the built library (dist/): stamps created and verified per second,
// webhook signatures verified per second. Not a test: it prints figures for the notes. Before any
// timing, node:crypto checks the stamps and each verifier must accept the genuine input and refuse a
// tampered one; the timed verify loops check every answer too.
// Usage: node test/bench/crypto.mjs [seconds-per-case]
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { prove, provedBench } from './proof.mjs';
import {
  createStamp,
  createStamper,
  verifyStamp,
  generateKeyPair,
  generateWebhookKeyPair,
  signWebhookBody,
  createWebhookVerifier,
  decompressPublicKey,
} from '../../dist/src/crypto/index.js';

const seconds = Number(process.argv[2] ?? 1);

function opsPerSecond(fn) {
  for (let i = 0; i < 200; i++) fn(); // warm up the JIT
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  const start = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
  }
  return n / ((performance.now() - start) / 1000);
}

/** node:crypto's verdict on a stamp over payload: an independent check of our signer. */
function opensslAccepts(header, payload) {
  const { publicKey, signature } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  const raw = Buffer.from(decompressPublicKey(publicKey), 'hex');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: raw.subarray(1, 33).toString('base64url'),
    y: raw.subarray(33).toString('base64url'),
  };
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  return nodeVerify('sha256', Buffer.from(payload), { key, dsaEncoding: 'der' }, Buffer.from(signature, 'hex'));
}

const refuses = (fn) => {
  try {
    fn();
    return false;
  } catch {
    return true;
  }
};

export function benchCrypto() {
  const { privateKey, publicKey } = generateKeyPair();
  const payload = JSON.stringify({
    organizationId: 'org',
    parameters: { targetPublicKey: generateKeyPair().publicKey },
    timestampMs: String(Date.now()),
    type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
  });
  const stamper = createStamper(privateKey);
  const header = stamper(payload);
  const webhookKeys = generateWebhookKeyPair();
  const body = Buffer.from(
    JSON.stringify({
      id: 'Webhook:0',
      type: 'CARD.STATE_CHANGE',
      timestamp: new Date().toISOString(),
      data: { id: 'Card:1', state: 'ACTIVE' },
    }),
  );
  const signature = signWebhookBody(body, webhookKeys.privateKeyPem);
  const verifyWebhook = createWebhookVerifier(webhookKeys.publicKeyPem);
  const tamperedBody = Buffer.from(body.toString('utf8').replace('ACTIVE', 'CLOSED'));
  prove(opensslAccepts(header, payload), 'node:crypto does not verify the stamp createStamper made');
  prove(opensslAccepts(createStamp(payload, privateKey), payload), 'node:crypto does not verify createStamp');
  prove(verifyStamp(header, payload)?.publicKey === publicKey, 'verifyStamp refuses a genuine stamp');
  prove(
    refuses(() => verifyStamp(header, `${payload} `)),
    'verifyStamp accepts a stamp over another payload',
  );
  prove(verifyWebhook(body, signature) === true, 'the webhook verifier refuses a genuine signature');
  prove(verifyWebhook(tamperedBody, signature) === false, 'the webhook verifier accepts a tampered body');
  const verifiedStamp = () =>
    prove(verifyStamp(header, payload).publicKey === publicKey, 'a timed stamp verify failed');
  const verifiedWebhook = () => prove(verifyWebhook(body, signature) === true, 'a timed webhook verify failed');
  return [
    { name: 'stamp (createStamp, one-shot API)', ops: opsPerSecond(() => createStamp(payload, privateKey)) },
    { name: 'stamp (createStamper, key parsed once)', ops: opsPerSecond(() => stamper(payload)) },
    { name: 'verify stamp', ops: opsPerSecond(verifiedStamp) },
    { name: 'verify webhook signature (node:crypto)', ops: opsPerSecond(verifiedWebhook) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await provedBench(() => {
    for (const r of benchCrypto())
      console.log(`${r.name.padEnd(42)} ${Math.round(r.ops).toLocaleString('en-US').padStart(9)} ops/s`);
  });
}
