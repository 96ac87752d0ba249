// Hot-path crypto benchmark on the built library (dist/): stamps created and verified per second,
// webhook signatures verified per second. Not a test: it prints figures for the notes.
// Usage: node test/bench/crypto.mjs [seconds-per-case]
import {
  createStamp,
  createStamper,
  verifyStamp,
  generateKeyPair,
  generateWebhookKeyPair,
  signWebhookBody,
  createWebhookVerifier,
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

export function benchCrypto() {
  const { privateKey } = generateKeyPair();
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
  return [
    { name: 'stamp (createStamp, one-shot API)', ops: opsPerSecond(() => createStamp(payload, privateKey)) },
    { name: 'stamp (createStamper, key parsed once)', ops: opsPerSecond(() => stamper(payload)) },
    { name: 'verify stamp', ops: opsPerSecond(() => verifyStamp(header, payload)) },
    { name: 'verify webhook signature (node:crypto)', ops: opsPerSecond(() => verifyWebhook(body, signature)) },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of benchCrypto())
    console.log(`${r.name.padEnd(42)} ${Math.round(r.ops).toLocaleString('en-US').padStart(9)} ops/s`);
}
