/**
 * Each refusal of a signed retry names its check in `reason`, so an integrator can tell a stamp by
 * the wrong key from one over the wrong bytes: the OTP verify challenge binds the key inside the
 * bundle (no session of the wallet may stand in for it), a stamp must name its signer in the
 * compressed form, and the retry carries both headers.
 */
import { describe, expect, it } from 'vitest';
import { encryptOtpBundle, verifyOtpTargetBundle } from '../../../../src/crypto/bundles.js';
import { generateKeyPair, publicKeyFromPrivate } from '../../../../src/crypto/keys.js';
import { createStamp } from '../../../../src/crypto/stamp.js';
import { errorShape, signedHeaders, useLoggedInEmulator } from '../support.js';

const { t, login } = useLoggedInEmulator({ processingRetries: 1 });
const refresh = (id: string) => `/auth/sessions/${id}/refresh`;

/** A stamp by privateKey over payload whose JSON names `publicKey` as its signer instead. */
function stampNaming(payload: string, privateKey: string, publicKey: string): string {
  const stamp = JSON.parse(Buffer.from(createStamp(payload, privateKey), 'base64url').toString('utf8'));
  return Buffer.from(JSON.stringify({ ...stamp, publicKey })).toString('base64url');
}

async function refreshChallenge() {
  const raw = JSON.stringify({ clientPublicKey: generateKeyPair().publicKey });
  const challenge = await t.call('POST', refresh(login.sessionId), { body: raw });
  expect(challenge.status, challenge.text).toBe(202);
  return { raw, challenge: challenge.body as { payloadToSign: string; requestId: string } };
}

async function refusal(raw: string, headers: Record<string, string>) {
  return errorShape(await t.call('POST', refresh(login.sessionId), { body: raw, headers }));
}

describe('OTP verify', () => {
  async function verifyChallenge() {
    const credentialId = t.emu.fixtures.credentialId;
    const issued = await t.call('POST', `/auth/credentials/${credentialId}/challenge`, { body: {} });
    const target = verifyOtpTargetBundle(issued.body.otpEncryptionTargetBundle, t.emu.otpSignerPublicKey);
    const tek = generateKeyPair();
    const bundle = async () => encryptOtpBundle(target.targetPublic, '000000', tek.publicKey);
    const raw = JSON.stringify({ type: 'EMAIL_OTP', encryptedOtpBundle: await bundle() });
    const path = `/auth/credentials/${credentialId}/verify`;
    const first = await t.call('POST', path, { body: raw });
    expect(first.status, first.text).toBe(202);
    return { path, raw, tek, bundle, challenge: first.body };
  }

  it('refuses a stamp by a live session of the wallet: only the key inside the bundle may sign', async () => {
    const { path, raw, challenge } = await verifyChallenge();
    const answer = await t.call('POST', path, { body: raw, headers: signedHeaders(challenge, login.privateKey) });
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'Service-Wallet-Signature was not made by the key bound to this challenge',
    });
  });

  it('refuses a retry whose bundle is not the one the challenge bound, naming the field', async () => {
    const { path, tek, bundle, challenge } = await verifyChallenge();
    const other = JSON.stringify({ type: 'EMAIL_OTP', encryptedOtpBundle: await bundle() });
    const answer = await t.call('POST', path, { body: other, headers: signedHeaders(challenge, tek.privateKey) });
    expect(errorShape(answer)).toMatchObject({
      status: 401,
      code: 'WALLET_SIGNATURE_BODY_MISMATCH',
      reason: 'encryptedOtpBundle differs from the one bound on the initial call',
    });
  });
});

describe('a signed retry', () => {
  it('needs both headers, and says which one is missing', async () => {
    const { raw, challenge } = await refreshChallenge();
    const headers = signedHeaders(challenge, login.privateKey);
    expect(await refusal(raw, { 'request-id': headers['request-id']! })).toMatchObject({
      code: 'WALLET_SIGNATURE_MISSING',
      reason: 'Service-Wallet-Signature is required on the signed retry (Request-Id was sent)',
    });
    expect(await refusal(raw, { 'service-wallet-signature': headers['service-wallet-signature']! })).toMatchObject({
      code: 'REQUEST_ID_MISSING',
      reason: 'Request-Id is required on the signed retry (Service-Wallet-Signature was sent)',
    });
  });

  it('refuses a stamp over other bytes, and one by a key that is no session of the wallet', async () => {
    const { raw, challenge } = await refreshChallenge();
    const overOther = { ...challenge, payloadToSign: `${challenge.payloadToSign} ` };
    expect(await refusal(raw, signedHeaders(overOther, login.privateKey))).toMatchObject({
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'Service-Wallet-Signature does not verify over the pending payloadToSign',
    });
    expect(await refusal(raw, signedHeaders(challenge, generateKeyPair().privateKey))).toMatchObject({
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'Service-Wallet-Signature key is not the key of an active session of this wallet',
    });
  });

  it('refuses a stamp that names its signer in any form but the bare compressed key', async () => {
    const { raw, challenge } = await refreshChallenge();
    const compressed = publicKeyFromPrivate(login.privateKey);
    const uncompressed = publicKeyFromPrivate(login.privateKey, { uncompressed: true });
    for (const named of [uncompressed, `ab${compressed}`, `${compressed}ab`]) {
      const headers = {
        'service-wallet-signature': stampNaming(challenge.payloadToSign, login.privateKey, named),
        'request-id': challenge.requestId,
      };
      expect(await refusal(raw, headers), named).toMatchObject({
        code: 'WALLET_SIGNATURE_MALFORMED',
        reason:
          'Service-Wallet-Signature is malformed: stamp publicKey must be the compressed SEC1 key (02/03 + 64 hex)',
      });
    }
  });

  it('answers PROCESSING with what to do, then refuses a re-send that is not byte-identical', async () => {
    const { raw, challenge } = await refreshChallenge();
    const headers = signedHeaders(challenge, login.privateKey);
    const processing = await t.call('POST', refresh(login.sessionId), { body: raw, headers });
    expect(processing.body).toEqual({
      status: 'PROCESSING',
      message: 'The operation is still processing; re-send the same request to get the result.',
    });
    expect(await refusal(`${raw}\n`, headers)).toMatchObject({
      code: 'WALLET_SIGNATURE_BODY_MISMATCH',
      reason: 'A re-sent signed retry must be byte-identical to the first signed retry',
    });
  });
});
