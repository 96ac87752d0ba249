/**
 * How many signed refresh flows (202 challenge + stamped retry → 201) the emulator completes per
 * second over loopback. Not a test: run it after a build and read the figure.
 *
 *   npx tsc -p tsconfig.json && node test/bench/refresh-rate.mjs [seconds=5] [concurrency=8]
 *
 * The emulator runs in a child process so its CPU is not shared with the client. The client signs
 * with OpenSSL (node:crypto), which is cheaper than our pure-JS stamper, so that the figure
 * measures the emulator rather than the client; pass --noble to sign with createStamper instead.
 * Before timing, the emulator must refuse a stamp by a key with no session and a stamp over another
 * payload, and every timed flow must end in 201 with a new session: an emulator that takes any
 * signature gets no figure.
 */
import { fork } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { Agent, request } from 'undici';
import { createStamper, STAMP_SCHEME, verifyStamp } from '../../dist/src/crypto/stamp.js';
import { generateKeyPair, publicKeyFromPrivate } from '../../dist/src/crypto/keys.js';
import { serveEmulatorToParent } from './emulator-child.mjs';
import { prove, provedBench } from './proof.mjs';

// Positional numbers only: --noble (and --child) may stand anywhere.
const [secondsArg, concurrencyArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(secondsArg ?? 5);
const concurrency = Number(concurrencyArg ?? 8);

/** The same stamp as createStamper (DER, maybe high-S, which verifiers accept), signed by OpenSSL. */
function opensslStamper(privateKeyHex) {
  const pub = Buffer.from(publicKeyFromPrivate(privateKeyHex, { uncompressed: true }), 'hex');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: Buffer.from(privateKeyHex, 'hex').toString('base64url'),
      x: pub.subarray(1, 33).toString('base64url'),
      y: pub.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const publicKey = publicKeyFromPrivate(privateKeyHex);
  return (payload) =>
    Buffer.from(
      JSON.stringify({
        publicKey,
        scheme: STAMP_SCHEME,
        signature: sign('sha256', Buffer.from(payload), { key, dsaEncoding: 'der' }).toString('hex'),
      }),
    ).toString('base64url');
}

if (process.argv[2] === '--child') {
  await serveEmulatorToParent((emu) => ({ sessionId: emu.testing.createSession(process.argv[3]).id }));
} else {
  await provedBench(async () => {
    const key = generateKeyPair();
    // EMULATOR_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the emulator side.
    const execArgv = process.env.EMULATOR_NODE_ARGS ? process.env.EMULATOR_NODE_ARGS.split(' ') : [];
    const child = fork(new URL(import.meta.url).pathname, ['--child', key.publicKey], { execArgv });
    process.on('exit', () => child.kill());
    const { baseUrl, auth, sessionId } = await new Promise((resolve) => child.once('message', resolve));
    const stamp = process.argv.includes('--noble') ? createStamper(key.privateKey) : opensslStamper(key.privateKey);
    verifyStamp(stamp('self-check'), 'self-check');
    const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
    const url = `${baseUrl}/auth/sessions/${sessionId}/refresh`;
    const targets = Array.from({ length: 256 }, () => generateKeyPair().publicKey);

    /** The 202 challenge, then the retry with the given stamp: its status and error code. */
    async function attempt(i, stampOf) {
      const body = JSON.stringify({ clientPublicKey: targets[i % targets.length] });
      const headers = { authorization: auth, 'content-type': 'application/json' };
      const challenge = await (await request(url, { method: 'POST', body, headers, dispatcher })).body.json();
      const retry = await request(url, {
        method: 'POST',
        body,
        headers: { ...headers, 'service-wallet-signature': stampOf(challenge), 'request-id': challenge.requestId },
        dispatcher,
      });
      return { status: retry.statusCode, code: (await retry.body.json()).code };
    }

    async function proveSignaturesChecked() {
      const stranger = createStamper(generateKeyPair().privateKey);
      const noSession = await attempt(0, (c) => stranger(c.payloadToSign));
      prove(noSession.status === 401, `a stamp by a key with no session got ${noSession.status}, not 401`);
      const otherPayload = await attempt(1, (c) => stamp(`${c.payloadToSign} `));
      prove(otherPayload.status === 401, `a stamp over another payload got ${otherPayload.status}, not 401`);
    }

    async function flow(i) {
      const body = JSON.stringify({ clientPublicKey: targets[i % targets.length] });
      const headers = { authorization: auth, 'content-type': 'application/json' };
      const first = await request(url, { method: 'POST', body, headers, dispatcher });
      const challenge = await first.body.json();
      if (first.statusCode !== 202) throw new Error(`initial: ${first.statusCode} ${JSON.stringify(challenge)}`);
      const retry = await request(url, {
        method: 'POST',
        body,
        headers: {
          ...headers,
          'service-wallet-signature': stamp(challenge.payloadToSign),
          'request-id': challenge.requestId,
        },
        dispatcher,
      });
      const done = await retry.body.json();
      if (retry.statusCode !== 201) throw new Error(`retry: ${retry.statusCode} ${JSON.stringify(done)}`);
      prove(
        typeof done.id === 'string' && done.id.startsWith('Session:') && done.id !== sessionId,
        'a refresh answered 201 without a new session',
      );
    }

    await proveSignaturesChecked();
    // Warm up (JIT, connections), then measure.
    for (let i = 0; i < 50; i++) await flow(i);
    child.send('mark');
    let completed = 0;
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        for (let i = w; performance.now() < deadline; i += concurrency) {
          await flow(i);
          completed += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const { cpuMs } = await new Promise((resolve) => {
      child.once('message', resolve);
      child.send('stop');
    });
    console.log(
      `${completed} signed refresh flows in ${elapsed.toFixed(2)} s = ${(completed / elapsed).toFixed(0)} flows/s (concurrency ${concurrency}, loopback, emulator in a child process)`,
    );
    // Wall-clock rates swing with machine load; CPU time per flow is the emulator's own cost.
    console.log(
      `emulator CPU: ${(cpuMs / completed).toFixed(2)} ms per flow = ${(completed / (cpuMs / 1000)).toFixed(0)} flows per CPU-second`,
    );
    await dispatcher.close();
  });
}
