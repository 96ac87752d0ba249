/** PATCH /internal-accounts/{id} and POST /internal-accounts/{id}/export as two-step signed flows, with real HPKE. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hpkeOpen } from '../../../../src/crypto/hpke.js';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { errorShape, signedHeaders, testEmulator, type TestEmulator } from '../support.js';
import { newCustomer, platformAccount } from './support.js';

let t: TestEmulator;
let wallet: string;
const session = generateKeyPair();
beforeAll(async () => {
  t = await testEmulator();
  wallet = (await newCustomer(t)).usd;
  t.emu.testing.createSession(session.publicKey, { accountId: wallet });
});
afterAll(() => t.close());

describe('PATCH /internal-accounts/{id}', () => {
  it('202 binds the body; the signed retry with the same body applies it', async () => {
    const body = { privateEnabled: true };
    const first = await t.call('PATCH', `/internal-accounts/${wallet}`, { body });
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({ parameters: { privateEnabled: true } });
    expect((await t.call('GET', `/internal-accounts/${wallet}`)).body.privateEnabled).toBe(false);
    const changed = await t.call('PATCH', `/internal-accounts/${wallet}`, {
      body: { privateEnabled: false },
      headers: signedHeaders(first.body, session.privateKey),
    });
    expect(errorShape(changed)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
    const done = await t.call('PATCH', `/internal-accounts/${wallet}`, {
      body,
      headers: signedHeaders(first.body, session.privateKey),
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: wallet, type: 'EMBEDDED_WALLET', privateEnabled: true });
  });

  it("refusals: an empty body 400, a stranger's stamp 401, an unknown Request-Id 401, an unknown account 404, a non-wallet 400", async () => {
    expect(
      errorShape(await t.call('PATCH', `/internal-accounts/${wallet}`, { body: {} })).details.errors[0].field,
    ).toBe('privateEnabled');
    expect(
      errorShape(await t.call('PATCH', `/internal-accounts/${wallet}`, { body: { privateEnabled: 'yes' } })).details
        .errors[0].field,
    ).toBe('privateEnabled');
    const first = await t.call('PATCH', `/internal-accounts/${wallet}`, { body: { privateEnabled: false } });
    const stranger = generateKeyPair();
    expect(
      errorShape(
        await t.call('PATCH', `/internal-accounts/${wallet}`, {
          body: { privateEnabled: false },
          headers: signedHeaders(first.body, stranger.privateKey),
        }),
      ),
    ).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_INVALID' });
    expect(
      errorShape(
        await t.call('PATCH', `/internal-accounts/${wallet}`, {
          body: { privateEnabled: false },
          headers: signedHeaders({ ...first.body, requestId: `Request:${randomUUID()}` }, session.privateKey),
        }),
      ),
    ).toMatchObject({ status: 401 });
    expect(
      errorShape(
        await t.call('PATCH', `/internal-accounts/InternalAccount:${randomUUID()}`, { body: { privateEnabled: true } }),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      errorShape(
        await t.call('PATCH', `/internal-accounts/${await platformAccount(t)}`, { body: { privateEnabled: true } }),
      ),
    ).toMatchObject({ status: 400 });
  });
});

describe('POST /internal-accounts/{id}/export', () => {
  it('the signed retry returns the wallet credentials sealed to the bound key; the same phrase each time', async () => {
    const phrases: string[] = [];
    for (let i = 0; i < 2; i++) {
      const client = generateKeyPair({ uncompressed: true });
      const first = await t.call('POST', `/internal-accounts/${wallet}/export`, {
        body: { clientPublicKey: client.publicKey },
      });
      expect(first.status).toBe(202);
      const other = generateKeyPair({ uncompressed: true });
      const swapped = await t.call('POST', `/internal-accounts/${wallet}/export`, {
        body: { clientPublicKey: other.publicKey },
        headers: signedHeaders(first.body, session.privateKey),
      });
      expect(errorShape(swapped)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
      const done = await t.call('POST', `/internal-accounts/${wallet}/export`, {
        body: { clientPublicKey: client.publicKey },
        headers: signedHeaders(first.body, session.privateKey),
      });
      expect(done.status).toBe(200);
      expect(done.body.id).toBe(wallet);
      const bundle = JSON.parse(done.body.encryptedWalletCredentials);
      expect(bundle).toMatchObject({ version: 'v1.0.0', dataSignature: '', enclaveQuorumPublic: '' });
      const data = JSON.parse(Buffer.from(bundle.data, 'hex').toString('utf8'));
      expect(data.organizationId).toEqual(expect.any(String));
      const plain = await hpkeOpen(
        client.privateKey,
        Buffer.from(data.encappedPublic, 'hex'),
        Buffer.from(data.ciphertext, 'hex'),
      );
      phrases.push(new TextDecoder().decode(plain));
      expect(done.text).not.toContain(phrases[i]);
    }
    expect(phrases[0]!.split(' ')).toHaveLength(24);
    expect(phrases[1]).toBe(phrases[0]);
  });

  it('400 for a compressed or malformed clientPublicKey (the description wants the uncompressed form)', async () => {
    for (const clientPublicKey of [generateKeyPair().publicKey, '04' + 'ab'.repeat(64), 42]) {
      const answer = await t.call('POST', `/internal-accounts/${wallet}/export`, { body: { clientPublicKey } });
      expect(errorShape(answer)).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
        details: { errors: [{ field: 'clientPublicKey' }] },
      });
    }
  });
});
