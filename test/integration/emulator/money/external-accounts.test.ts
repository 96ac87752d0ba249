/** External accounts over HTTP: variants, validation, the beneficiary name table, ownership proof. */
import { randomUUID } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eip191Digest, evmAddress } from '../../../../src/emulator/features/external-accounts/eip191.js';
import { delivered, errorShape, testEmulator, webhookReceiver, type Receiver, type TestEmulator } from '../support.js';
import { accountInfo, newCustomer, person } from './support.js';

let t: TestEmulator;
let customerId: string;
let hooks: Receiver;
beforeAll(async () => {
  t = await testEmulator();
  customerId = (await newCustomer(t)).id;
  hooks = await webhookReceiver();
  await t.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
});
afterAll(async () => {
  await t.close();
  await hooks.close();
});

const create = (body: Record<string, unknown>) => t.call('POST', '/customers/external-accounts', { body });

describe('create, get, list, delete', () => {
  it.each([
    [
      'USD_ACCOUNT',
      'USD',
      { accountNumber: '123456000', routingNumber: '021000021', paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] },
    ],
    ['EUR_ACCOUNT', 'EUR', { iban: 'DE89370400440532013000', paymentRails: ['SEPA', 'SEPA_INSTANT'] }],
    ['MXN_ACCOUNT', 'MXN', { clabeNumber: '002010077777777000', paymentRails: ['SPEI'] }],
    ['SPARK_WALLET', 'BTC', { address: 'sp1qsandboxwallet000', vaspName: 'Sandbox VASP' }],
    ['LIGHTNING', 'BTC', { lightningAddress: 'ada000@wallet.example.com' }],
  ])(
    '%s: 201, then readable by id and in the customer list; DELETE 204 then 404',
    async (accountType, currency, shown) => {
      const created = await create({ customerId, currency, accountInfo: accountInfo(accountType) });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^ExternalAccount:/),
        customerId,
        currency,
        status: 'ACTIVE',
        accountInfo: { accountType, ...shown },
      });
      expect(created.body).not.toHaveProperty('primaryIdentifier');
      const id = created.body.id;
      expect((await t.call('GET', `/customers/external-accounts/${id}`)).body).toEqual(created.body);
      const list = await t.call('GET', `/customers/external-accounts?customerId=${customerId}&currency=${currency}`);
      expect(list.body.data.map((a: any) => a.id)).toContain(id);
      expect(list.body).toMatchObject({ hasMore: false, totalCount: list.body.data.length });
      expect((await create({ customerId, currency, accountInfo: accountInfo(accountType) })).status).toBe(409);
      expect((await t.call('DELETE', `/customers/external-accounts/${id}`)).status).toBe(204);
      expect(errorShape(await t.call('GET', `/customers/external-accounts/${id}`))).toMatchObject({ status: 404 });
      expect((await t.call('DELETE', `/customers/external-accounts/${id}`)).status).toBe(404);
    },
  );

  it('pages the list with limit and cursor', async () => {
    const owner = (await newCustomer(t, 'Pager Person')).id;
    for (const digits of ['201', '202', '203']) {
      expect(
        (await create({ customerId: owner, currency: 'USD', accountInfo: accountInfo('USD_ACCOUNT', digits) })).status,
      ).toBe(201);
    }
    const first = await t.call('GET', `/customers/external-accounts?customerId=${owner}&limit=2`);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    const second = await t.call(
      'GET',
      `/customers/external-accounts?customerId=${owner}&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(new Set([...first.body.data, ...second.body.data].map((a: any) => a.id)).size).toBe(3);
    const bad = await t.call('GET', '/customers/external-accounts?limit=0&customerId=Customer:1');
    expect(
      errorShape(bad)
        .details.errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['limit']);
  });

  it("without customerId the account is the platform's, listed under /platform/external-accounts", async () => {
    const created = await create({ currency: 'USD', accountInfo: accountInfo('USD_ACCOUNT', '777') });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('customerId');
    const list = await t.call('GET', '/platform/external-accounts');
    expect(list.body.data.map((a: any) => a.id)).toContain(created.body.id);
    expect((await t.call('GET', `/platform/external-accounts/${created.body.id}`)).status).toBe(200);
  });

  it('400 naming customerId for an unknown customer (creating an external account declares no 404)', async () => {
    const answer = await create({
      customerId: `Customer:${randomUUID()}`,
      currency: 'USD',
      accountInfo: accountInfo('USD_ACCOUNT'),
    });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['customerId']);
  });
});

describe('validation lists every bad field at once', () => {
  it('names each bad field of the body, the account info and the beneficiary', async () => {
    const answer = await create({
      customerId: 'Customer:nope',
      currency: 'EUR',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '1'.repeat(35),
        routingNumber: '12',
        beneficiary: { beneficiaryType: 'INDIVIDUAL' },
      },
    });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors.map((e: any) => e.field)).toEqual([
      'accountInfo.accountNumber',
      'accountInfo.routingNumber',
      'accountInfo.beneficiary.fullName',
    ]);
  });

  it('requires the beneficiary of a bank account, the variant fields, and a known accountType', async () => {
    const missing = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT' } });
    expect(missing.body.details.errors.map((e: any) => e.field)).toEqual([
      'accountInfo.clabeNumber',
      'accountInfo.beneficiary',
    ]);
    const unknown = await create({ accountInfo: { accountType: 'PIGEON' } });
    expect(unknown.body.details.errors.map((e: any) => e.field)).toEqual(['currency', 'accountInfo.accountType']);
    const eur = await create({
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'A B' },
      },
    });
    expect(eur.body.details.errors.map((e: any) => e.field)).toEqual(['accountInfo.beneficiary.countryOfResidence']);
    const lightning = await create({
      currency: 'BTC',
      accountInfo: { accountType: 'LIGHTNING', invoice: 'lnbc1', lightningAddress: 'a@b.co' },
    });
    expect(lightning.body.details.errors.map((e: any) => e.field)).toEqual(['accountInfo.lightningAddress']);
  });
});

describe('what the description leaves open is taken as given', () => {
  // Its beneficiary fields, platformAccountId and the list's currency filter are plain strings: the
  // emulator adds no format, pattern or length of its own to them (only its bound on stored text).
  it('a beneficiary birth date and phone number in any form, long names, a long platformAccountId', async () => {
    const beneficiary = {
      beneficiaryType: 'INDIVIDUAL',
      fullName: `Ada ${'L'.repeat(300)}`,
      birthDate: '10 December 1815',
      phoneNumber: '020 7946 0000',
      email: `${'a'.repeat(250)}@example.com`,
      address: { line1: 'x'.repeat(250), postalCode: 'SW1A 1AA 0000000000000', country: 'GB' },
    };
    const platformAccountId = `ref-${'r'.repeat(200)}`;
    const owner = (await newCustomer(t)).id;
    const answer = await create({
      customerId: owner,
      currency: 'USD',
      platformAccountId,
      accountInfo: { ...accountInfo('USD_ACCOUNT'), beneficiary },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ platformAccountId, accountInfo: { beneficiary } });
    const business = { beneficiaryType: 'BUSINESS', legalName: 'Analytical Engines', taxId: 'T'.repeat(100) };
    const forBusiness = await create({
      customerId: owner,
      currency: 'EUR',
      accountInfo: { ...accountInfo('EUR_ACCOUNT'), beneficiary: business },
    });
    expect(forBusiness.status, forBusiness.text).toBe(201);
    expect(forBusiness.body.accountInfo.beneficiary).toEqual(business);
    const listed = await t.call('GET', `/customers/external-accounts?customerId=${owner}&currency=usd`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
  });
});

describe('beneficiaryVerificationStatus by the 1xx suffix of the primary identifier', () => {
  it.each([
    ['102', 'NOT_MATCHED', 'Sandbox Other Holder'],
    ['103', 'PARTIAL_MATCH', 'A. Lovelace'],
    ['104', 'PENDING', undefined],
    ['106', 'UNSUPPORTED', undefined],
    ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
    ['100', 'MATCHED', 'Ada Lovelace'],
    ['002', 'MATCHED', 'Ada Lovelace'],
  ])('%s → %s', async (digits, status, verifiedName) => {
    for (const accountType of ['USD_ACCOUNT', 'EUR_ACCOUNT', 'MXN_ACCOUNT']) {
      const answer = await create({
        customerId,
        currency: { USD_ACCOUNT: 'USD', EUR_ACCOUNT: 'EUR', MXN_ACCOUNT: 'MXN' }[accountType],
        accountInfo: accountInfo(accountType, digits),
      });
      expect(answer.status).toBe(201);
      expect(answer.body.beneficiaryVerificationStatus).toBe(status);
      expect(answer.body.beneficiaryVerifiedData?.fullName).toBe(verifiedName);
    }
  });

  it('105: 400 INVALID_BANK_ACCOUNT, nothing created', async () => {
    const before = (await t.call('GET', `/customers/external-accounts?customerId=${customerId}&limit=100`)).body
      .totalCount;
    const answer = await create({ customerId, currency: 'USD', accountInfo: accountInfo('USD_ACCOUNT', '105') });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_BANK_ACCOUNT' });
    expect(
      (await t.call('GET', `/customers/external-accounts?customerId=${customerId}&limit=100`)).body.totalCount,
    ).toBe(before);
  });

  it('a username with a domain carries the digits at the end of the username', async () => {
    const answer = await create({
      customerId,
      currency: 'BTC',
      accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'ada103@wallet.example.com', beneficiary: person },
    });
    expect(answer.body.beneficiaryVerificationStatus).toBe('PARTIAL_MATCH');
  });
});

// Every wallet variant of the description's ExternalAccountCreateInfoOneOf, in each stablecoin its
// network's payment info lists (assetType), and in the sandbox's USD; a coin the network lacks is 400.
describe('wallet variants and their stablecoins', () => {
  const evm = '0x52908400098527886E0F7030069857D2E4169EE7';
  const solana = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  const tron = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
  it.each([
    ['ETHEREUM_WALLET', evm, 'USDC'],
    ['ETHEREUM_WALLET', evm, 'USDT'],
    ['BASE_WALLET', evm, 'USDC'],
    ['POLYGON_WALLET', evm, 'USDC'],
    ['PLASMA_WALLET', evm, 'USDT'],
    ['SOLANA_WALLET', solana, 'USDC'],
    ['SOLANA_WALLET', solana, 'USDT'],
    ['TRON_WALLET', tron, 'USDT'],
    ['SPARK_WALLET', 'sp1qsandboxwallet777', 'BTC'],
  ])('%s in %s: 201, shown in that currency, listed under it', async (accountType, address, currency) => {
    const owner = (await newCustomer(t)).id;
    const body = { customerId: owner, currency, accountInfo: { accountType, address, vaspName: 'Sandbox VASP' } };
    const created = await create(body);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ currency, status: 'ACTIVE', accountInfo: { accountType, address } });
    const list = await t.call('GET', `/customers/external-accounts?customerId=${owner}&currency=${currency}`);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([created.body.id]);
  });

  it.each([
    ['TRON_WALLET', tron, 'USDC', ['USDT']],
    ['BASE_WALLET', evm, 'USDT', ['USDC']],
    ['SOLANA_WALLET', solana, 'USD', ['USDC', 'USDT']],
    ['SPARK_WALLET', 'sp1qsandboxwallet778', 'USDC', ['BTC']],
    ['USD_ACCOUNT', undefined, 'USDC', ['USD']],
  ])('%s in %s: 400 naming currency and what the variant holds', async (accountType, address, currency, held) => {
    const info = address ? { accountType, address } : accountInfo(accountType, '778');
    const answer = await create({ customerId, currency, accountInfo: info });
    expect(errorShape(answer)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body.details.errors).toEqual([
      expect.objectContaining({ field: 'currency', constraint: { enum: held } }),
    ]);
  });

  it('a malformed Solana or Tron address is 400 naming accountInfo.address', async () => {
    for (const [accountType, address] of [
      ['SOLANA_WALLET', '0OIl-not-base58'],
      ['TRON_WALLET', evm],
    ]) {
      const answer = await create({ customerId, currency: 'USDT', accountInfo: { accountType, address } });
      expect(answer.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['accountInfo.address']);
    }
  });
});

describe('ownership of first-party self-custody wallets', () => {
  const wallet = async (address: string, accountType = 'ETHEREUM_WALLET') => {
    const answer = await create({
      customerId,
      currency: accountType === 'SPARK_WALLET' ? 'BTC' : 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType, address },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    return answer.body.id as string;
  };
  const sign = (secret: Uint8Array, message: string) => {
    const sig = secp256k1.sign(eip191Digest(message), secret, { prehash: false, format: 'recovered' });
    return `0x${Buffer.from(sig.subarray(1)).toString('hex')}${(sig[0]! + 27).toString(16)}`;
  };

  it('WALLET_SIGNATURE: an EIP-191 signature by the wallet makes it ACTIVE (and says so by webhook)', async () => {
    const secret = secp256k1.utils.randomSecretKey();
    const id = await wallet(evmAddress(secp256k1.getPublicKey(secret)));
    expect(
      errorShape(await t.call('POST', `/customers/external-accounts/${id}/verify`, { body: { signature: '0x00' } })),
    ).toMatchObject({ status: 409 });
    const challenge = await t.call('POST', `/customers/external-accounts/${id}/challenge`, {
      body: { method: 'WALLET_SIGNATURE' },
    });
    expect(challenge.status).toBe(201);
    expect(challenge.body).toMatchObject({
      method: 'WALLET_SIGNATURE',
      messageToSign: expect.any(String),
      expiresAt: expect.any(String),
    });
    const ok = await t.call('POST', `/customers/external-accounts/${id}/verify`, {
      body: { signature: sign(secret, challenge.body.messageToSign) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('ACTIVE');
    await delivered(t);
    expect(
      hooks.deliveries.some(
        (d) =>
          d.body.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && d.body.data.id === id && d.body.data.status === 'ACTIVE',
      ),
    ).toBe(true);
    expect(
      errorShape(
        await t.call('POST', `/customers/external-accounts/${id}/challenge`, { body: { method: 'WALLET_SIGNATURE' } }),
      ),
    ).toMatchObject({ status: 409 });
  });

  it('a signature by another key: 400 and the account is UNVERIFIED; a new challenge can still succeed', async () => {
    const secret = secp256k1.utils.randomSecretKey();
    const id = await wallet(evmAddress(secp256k1.getPublicKey(secret)));
    const first = await t.call('POST', `/customers/external-accounts/${id}/challenge`, {
      body: { method: 'WALLET_SIGNATURE' },
    });
    const wrong = await t.call('POST', `/customers/external-accounts/${id}/verify`, {
      body: { signature: sign(secp256k1.utils.randomSecretKey(), first.body.messageToSign) },
    });
    expect(errorShape(wrong)).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await t.call('GET', `/customers/external-accounts/${id}`)).body.status).toBe('UNVERIFIED');
    const second = await t.call('POST', `/customers/external-accounts/${id}/challenge`, {
      body: { method: 'WALLET_SIGNATURE' },
    });
    expect((await t.call('GET', `/customers/external-accounts/${id}`)).body.status).toBe(
      'PENDING_OWNERSHIP_VERIFICATION',
    );
    t.emu.testing.advanceClock(11 * 60 * 1000);
    const late = await t.call('POST', `/customers/external-accounts/${id}/verify`, {
      body: { signature: sign(secret, second.body.messageToSign) },
    });
    expect(late.status).toBe(409); // the expired challenge was forgotten
  });

  it('LIVENESS completes a minute of emulator time later', async () => {
    const id = await wallet('sp1qselfcustodyspark000', 'SPARK_WALLET');
    const refused = await t.call('POST', `/customers/external-accounts/${id}/challenge`, {
      body: { method: 'WALLET_SIGNATURE' },
    });
    expect(errorShape(refused).details.errors[0].field).toBe('method');
    const liveness = await t.call('POST', `/customers/external-accounts/${id}/challenge`, {
      body: { method: 'LIVENESS' },
    });
    expect(liveness.body).toMatchObject({
      method: 'LIVENESS',
      verificationLink: expect.stringContaining('/embed/liveness/'),
      token: expect.any(String),
    });
    const page = await fetch(liveness.body.verificationLink); // no Basic auth: the link is what a person opens
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect((await fetch(liveness.body.verificationLink.replace(/[0-9a-f]{32}$/, '0'.repeat(32)))).status).toBe(404);
    t.emu.testing.advanceClock(59_000);
    expect((await t.call('GET', `/customers/external-accounts/${id}`)).body.status).toBe(
      'PENDING_OWNERSHIP_VERIFICATION',
    );
    t.emu.testing.advanceClock(1_000);
    expect((await t.call('GET', `/customers/external-accounts/${id}`)).body.status).toBe('ACTIVE');
  });

  it('a custodial wallet (vaspName) or a bank account takes no challenge', async () => {
    const created = await create({
      customerId,
      currency: 'BTC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: accountInfo('SPARK_WALLET', '901'),
    });
    expect(created.body.status).toBe('ACTIVE');
    expect(
      (
        await t.call('POST', `/customers/external-accounts/${created.body.id}/challenge`, {
          body: { method: 'LIVENESS' },
        })
      ).status,
    ).toBe(409);
  });
});
