/**
 * Quotes paid from an embedded wallet, both ways: the description's one call (the quote's
 * EMBEDDED_WALLET payment instruction carries payloadToSign; execute with a stamp over it answers 200
 * at once) and the spec's two steps (an unsigned execute answers 202, the signed retry executes).
 * A stamp by a key that is not a session of the wallet, or over other bytes, moves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStamp } from '../../../../src/crypto/stamp.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, testEmulator, type TestEmulator } from '../support.js';
import { accountBalances, accountQuote, externalAccount, fund, newCustomer } from './support.js';

let t: TestEmulator;
let payer: { id: string; usd: string };
let destination: string;
let session: { publicKey: string; privateKey: string };
beforeAll(async () => {
  t = await testEmulator();
  payer = await newCustomer(t, 'Wallet Payer');
  await fund(t, payer.usd, 100_000);
  destination = await externalAccount(t, payer.id, 'USD_ACCOUNT', '271');
  session = generateKeyPair();
  t.emu.testing.createSession(session.publicKey, { accountId: payer.usd });
});
afterAll(() => t.close());

const newQuote = async () => {
  const answer = await t.call('POST', '/quotes', { body: accountQuote(payer.usd, destination, 10_000) });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
};
const execute = (id: string, headers: Record<string, string> = {}) =>
  t.call('POST', `/quotes/${id}/execute`, { headers });
const payloadOf = (q: any): string => q.paymentInstructions[0].accountOrWalletInfo.payloadToSign;

describe('the description’s one call', () => {
  it('the quote carries an EMBEDDED_WALLET payment instruction with the payloadToSign of this payment', async () => {
    const q = await newQuote();
    expect(q.paymentInstructions).toEqual([
      {
        instructionsNotes: expect.stringContaining('Service-Wallet-Signature'),
        accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: expect.any(String) },
      },
    ]);
    expect(JSON.parse(payloadOf(q))).toMatchObject({
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
      parameters: { quoteId: q.id, amount: String(q.totalSendingAmount), currency: 'USD' },
    });
    expect((await t.call('GET', `/quotes/${q.id}`)).body.paymentInstructions).toEqual(q.paymentInstructions);
  });

  it('a stamp over that payload by a session key of the wallet executes at once: 200, the money moves', async () => {
    const q = await newQuote();
    const before = (await accountBalances(t, payer.usd)).balance;
    const done = await execute(q.id, { 'service-wallet-signature': createStamp(payloadOf(q), session.privateKey) });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: q.id, status: 'COMPLETED', transactionId: q.transactionId });
    expect((await accountBalances(t, payer.usd)).balance).toBe(before - q.totalSendingAmount);
    expect(errorShape(await execute(q.id))).toMatchObject({ status: 409 });
  });

  it('a stranger’s stamp over the payload, or the wallet’s stamp over other bytes, is 401 and moves nothing', async () => {
    const q = await newQuote();
    const other = await newQuote();
    const before = await accountBalances(t, payer.usd);
    const stranger = generateKeyPair();
    for (const [stamp, code] of [
      [createStamp(payloadOf(q), stranger.privateKey), 'WALLET_SIGNATURE_INVALID'],
      [createStamp(payloadOf(other), session.privateKey), 'WALLET_SIGNATURE_INVALID'],
      ['not-a-stamp', 'WALLET_SIGNATURE_MALFORMED'],
    ]) {
      expect(errorShape(await execute(q.id, { 'service-wallet-signature': stamp! }))).toMatchObject({
        status: 401,
        code,
      });
    }
    expect((await t.call('GET', `/quotes/${q.id}`)).body.status).toBe('PENDING');
    expect(await accountBalances(t, payer.usd)).toEqual(before);
  });
});

describe('the spec’s two steps', () => {
  it('an unsigned execute answers the 202 challenge; its signed retry executes', async () => {
    const q = await newQuote();
    const challenge = await execute(q.id);
    expect(challenge.status).toBe(202);
    expect(challenge.body).toMatchObject({
      payloadToSign: expect.stringContaining(q.id),
      requestId: expect.any(String),
    });
    const done = await execute(q.id, signedHeaders(challenge.body, session.privateKey));
    expect(done.status, done.text).toBe(200);
    expect(done.body.status).toBe('COMPLETED');
  });
});
