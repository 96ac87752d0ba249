/** Engine edge cases with an in-memory ApiClient (the wire behaviour is covered by the integration tests). */
import { describe, expect, it } from 'vitest';
import { signedRequest } from '../../../src/signing/index.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../../../src/http/index.js';
import { InterruptedError } from '../../../src/errors.js';

function scripted(answers: ApiResponse[]): ApiClient & { sent: RequestOptions[] } {
  const sent: RequestOptions[] = [];
  return {
    baseUrl: 'http://127.0.0.1:1/2025-10-13',
    sent,
    async request<T>(req: RequestOptions) {
      sent.push(req);
      const next = answers.shift();
      if (!next) throw new Error('unexpected request');
      return next as ApiResponse<T>;
    },
  };
}

const challenge: ApiResponse = {
  status: 202,
  headers: {},
  text: '',
  body: { payloadToSign: 'p', requestId: 'Request:1', expiresAt: new Date(Date.now() + 60_000).toISOString() },
};

describe('signedRequest aborts', () => {
  it('sends nothing when the signal is already aborted', async () => {
    const client = scripted([challenge]);
    const ac = new AbortController();
    ac.abort();
    await expect(
      signedRequest(client, { method: 'POST', path: '/r', sign: () => 's', signal: ac.signal }),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(client.sent).toHaveLength(0);
  });

  it('does not send the signed retry when aborted while signing', async () => {
    const client = scripted([challenge]);
    const ac = new AbortController();
    const sign = async () => {
      ac.abort();
      return 'stamp';
    };
    await expect(signedRequest(client, { method: 'POST', path: '/r', sign, signal: ac.signal })).rejects.toBeInstanceOf(
      InterruptedError,
    );
    expect(client.sent).toHaveLength(1);
  });

  it('passes extra headers on every step and adds the signature headers only to the retry', async () => {
    const client = scripted([
      challenge,
      { status: 200, headers: {}, text: '', body: { id: 'Transaction:1', status: 'COMPLETED' } },
    ]);
    const res = await signedRequest(client, {
      method: 'POST',
      path: '/quotes/Q/execute',
      headers: { 'Idempotency-Key': 'k1' },
      sign: () => 'stamp',
    });
    expect(res.status).toBe(200);
    expect(client.sent.map((r) => r.headers)).toEqual([
      { 'Idempotency-Key': 'k1' },
      { 'Idempotency-Key': 'k1', 'Service-Wallet-Signature': 'stamp', 'Request-Id': 'Request:1' },
    ]);
  });
});
