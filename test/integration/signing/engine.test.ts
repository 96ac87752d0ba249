/**
 * The signed-retry engine against a real server: 202 challenge → signed retry → 200 PROCESSING
 * (twice) → 201. Every retry must be byte-identical and carry a stamp that node:crypto verifies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/http/index.js';
import { signedRequest, type SignedRequestChallenge } from '../../../src/signing/index.js';
import { createStamp } from '../../../src/crypto/stamp.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import { ApiError, ChallengeExpiredError, InterruptedError } from '../../../src/errors.js';
import { abortableSleep } from '../../../src/http/sleep.js';
import { sendJson, startServer, type LocalServer, type RecordedRequest } from '../http/local-server.js';
import { decodeStamp, nodeVerifyStamp } from './node-verify.js';

const auth = { kind: 'basic' as const, tokenId: 'tok', secret: 'sec' };
const signer = generateKeyPair();
const sign = (p: string) => createStamp(p, signer.privateKey);
const PAYLOAD =
  '{"organizationId":"org-1","parameters":{"targetPublicKey":"02aa"},"timestampMs":"1700000000000","type":"ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2"}';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function challenge(ttlMs = 60_000): SignedRequestChallenge {
  return {
    type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
    payloadToSign: PAYLOAD,
    requestId: 'Request:7f0c',
    expiresAt: new Date(Date.now() + ttlMs).toISOString(),
  };
}

/** What the service checks: the stamp parses, is by the session's key, and verifies over the payload. */
function stampFromSigner(header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  try {
    return decodeStamp(header).publicKey === signer.publicKey && nodeVerifyStamp(header, PAYLOAD);
  } catch {
    return false;
  }
}

/** 202 on the first call; afterwards PROCESSING `processing` times, then `final` — if the stamp verifies. */
async function refreshServer(
  processing: number,
  final: { status: number; body?: unknown },
  ttlMs?: number,
): Promise<LocalServer> {
  return startServer((req, res, i) => {
    if (i === 0) return sendJson(res, 202, challenge(ttlMs));
    if (!stampFromSigner(req.headers['service-wallet-signature'])) {
      return sendJson(res, 401, { status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'bad stamp' });
    }
    if (i <= processing) return sendJson(res, 200, { status: 'PROCESSING', message: 'retry the same request' });
    if (final.body === undefined) {
      res.writeHead(final.status);
      return res.end();
    }
    return sendJson(res, final.status, final.body);
  });
}

function signatureHeaders(r: RecordedRequest) {
  return { sig: r.headers['service-wallet-signature'], rid: r.headers['request-id'] };
}

describe('signedRequest', () => {
  it('follows 202 → signed retry → PROCESSING ×2 → 201 with byte-identical retries', async () => {
    server = await refreshServer(2, { status: 201, body: { id: 'Session:new' } });
    const client = createClient({ baseUrl: server.origin, auth });
    const events: string[] = [];
    const sleeps: number[] = [];
    const body = '{"clientPublicKey":  "02aa" }'; // odd spacing: must survive byte for byte
    const res = await signedRequest<{ id: string }>(client, {
      method: 'POST',
      path: '/auth/sessions/Session:1/refresh',
      body,
      sign,
      backoff: { initialMs: 5, maxMs: 8 },
      sleep: (ms, s) => {
        sleeps.push(ms);
        return abortableSleep(ms, s);
      },
      hooks: {
        onChallenge: (c) => void events.push(`challenge:${c.requestId}`),
        onProcessing: (n, b) => void events.push(`processing:${n}:${(b as { status: string }).status}`),
        onSettled: (s) => void events.push(`settled:${s}`),
      },
    });

    expect(res.status).toBe(201);
    expect(res.body.id).toBe('Session:new');
    expect(events).toEqual([
      'challenge:Request:7f0c',
      'processing:1:PROCESSING',
      'processing:2:PROCESSING',
      'settled:201',
    ]);
    expect(sleeps).toEqual([5, 8]);

    const [initial, ...retries] = server.requests;
    expect(retries).toHaveLength(3);
    expect(signatureHeaders(initial!)).toEqual({ sig: undefined, rid: undefined });
    expect(initial!.body.equals(Buffer.from(body))).toBe(true);
    for (const r of retries) {
      expect(r.method).toBe('POST');
      expect(r.url).toBe(initial!.url);
      expect(r.body.equals(initial!.body)).toBe(true);
      expect(signatureHeaders(r)).toEqual(signatureHeaders(retries[0]!));
    }
    const stampHeader = retries[0]!.headers['service-wallet-signature'] as string;
    expect(retries[0]!.headers['request-id']).toBe('Request:7f0c');
    expect(decodeStamp(stampHeader)).toMatchObject({
      publicKey: signer.publicKey,
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
    });
    expect(nodeVerifyStamp(stampHeader, PAYLOAD)).toBe(true);
    expect(nodeVerifyStamp(stampHeader, PAYLOAD.replace('02aa', '02ab'))).toBe(false);
  });

  it('serializes an object body once and sends those bytes on every step', async () => {
    server = await refreshServer(1, { status: 201, body: { id: 'Session:new' } });
    let serializations = 0;
    const body = {
      clientPublicKey: '02aa',
      toJSON: () => (serializations++, { clientPublicKey: '02aa', n: serializations }),
    };
    await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      body,
      sign,
      backoff: { initialMs: 1 },
    });
    expect(serializations).toBe(1);
    const bodies = server.requests.map((r) => r.body.toString());
    expect(new Set(bodies)).toEqual(new Set(['{"clientPublicKey":"02aa","n":1}']));
    expect(server.requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(true);
  });

  it('serves a signed DELETE with no body (session revoke → 204)', async () => {
    server = await refreshServer(0, { status: 204 });
    const res = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'DELETE',
      path: '/auth/sessions/Session:1',
      sign,
    });
    expect(res.status).toBe(204);
    expect(server.requests.map((r) => [r.method, r.body.length, r.headers['content-type']])).toEqual([
      ['DELETE', 0, undefined],
      ['DELETE', 0, undefined],
    ]);
  });

  it('returns a first answer that is not 202 as is, without signing', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { id: 'Session:x' }));
    let signed = 0;
    const res = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      body: {},
      sign: (p) => (signed++, sign(p)),
    });
    expect(res).toMatchObject({ status: 200, body: { id: 'Session:x' } });
    expect(signed).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it('propagates a 401 on the signed retry as ApiError', async () => {
    server = await refreshServer(0, { status: 201, body: {} });
    const wrongKey = generateKeyPair().privateKey;
    const err = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      body: {},
      sign: (p) => createStamp(p, wrongKey),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_INVALID' });
    expect(server.requests).toHaveLength(2);
  });

  it('throws ChallengeExpiredError once the challenge expires while PROCESSING, sending nothing after expiry', async () => {
    // A fake clock makes the schedule exact: sends at +0, +0, +50, +150, +250, +350; expiry at +400.
    const t0 = Date.parse('2030-01-01T00:00:00.000Z');
    let clock = t0;
    const sleeps: number[] = [];
    const sentAt: number[] = [];
    server = await startServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 202, { ...challenge(), expiresAt: new Date(t0 + 400).toISOString() })
        : sendJson(res, 200, { status: 'PROCESSING' }),
    );
    const real = createClient({ baseUrl: server.origin, auth });
    const client = {
      baseUrl: real.baseUrl,
      request: ((r) => (sentAt.push(clock), real.request(r))) as typeof real.request,
    };
    const err = await signedRequest(client, {
      method: 'POST',
      path: '/r',
      body: {},
      sign,
      backoff: { initialMs: 50, maxMs: 100 },
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChallengeExpiredError);
    expect((err as ChallengeExpiredError).message).toMatch(/challenge expired at 2030-01-01T00:00:00.400Z/);
    expect((err as ChallengeExpiredError).message).toMatch(/run the command again/);
    expect(sleeps).toEqual([50, 100, 100, 100, 50]);
    expect(sentAt.map((t) => t - t0)).toEqual([0, 0, 50, 150, 250, 350]);
    expect(server.requests).toHaveLength(6);
  });

  it('gives up at expiry in real time too', async () => {
    server = await startServer((_req, res, i) =>
      i === 0 ? sendJson(res, 202, challenge(300)) : sendJson(res, 200, { status: 'PROCESSING' }),
    );
    const started = Date.now();
    const err = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      sign,
      backoff: { initialMs: 20, maxMs: 50 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChallengeExpiredError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops cleanly on abort mid-PROCESSING: InterruptedError and no further requests', async () => {
    server = await refreshServer(1000, { status: 201, body: {} });
    const ac = new AbortController();
    const err = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      body: {},
      sign,
      signal: ac.signal,
      backoff: { initialMs: 20, maxMs: 20 },
      hooks: { onProcessing: (n) => n === 2 && ac.abort() },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const sent = server.requests.length;
    expect(sent).toBe(3); // initial, retry, one re-send
    await new Promise((r) => setTimeout(r, 150));
    expect(server.requests.length).toBe(sent);
  });

  it('cancels before the signed retry when onChallenge throws', async () => {
    server = await refreshServer(0, { status: 201, body: {} });
    const err = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      body: {},
      sign,
      hooks: {
        onChallenge: () => {
          throw new InterruptedError('declined');
        },
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a 202 that is not a challenge with a clear error', async () => {
    server = await startServer((_req, res) =>
      sendJson(res, 202, { payloadToSign: 'x', expiresAt: new Date().toISOString() }),
    );
    const err = await signedRequest(createClient({ baseUrl: server.origin, auth }), {
      method: 'POST',
      path: '/r',
      sign,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'INVALID_CHALLENGE' });
    expect((err as ApiError).message).toContain('requestId');
  });
});
