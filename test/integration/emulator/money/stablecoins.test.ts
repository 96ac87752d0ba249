/**
 * Stablecoin issuance: a provider account link, a stablecoin registered against it, mints and burns
 * that move PENDING_* → PROCESSING → COMPLETED on the emulator's clock; Idempotency-Key required and
 * replayed; bad fields named; unknown ids 404; accounts of the wrong kind refused naming the field.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalAccount } from './support.js';
import { STILL, errorShape, testEmulator, type TestEmulator } from '../support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

let t: TestEmulator;
let spark: string;
let bank: string;
beforeAll(async () => {
  t = await testEmulator(STILL);
  spark = await externalAccount(t, t.emu.fixtures.customerId, 'SPARK_WALLET');
  bank = await externalAccount(t, t.emu.fixtures.customerId, 'USD_ACCOUNT');
});
afterAll(() => t.close());

const key = () => ({ 'idempotency-key': randomUUID() });
const post = (path: string, body: object, headers: Record<string, string> = key()) =>
  t.call('POST', path, { body, headers });
const fieldsOf = (answer: any) => errorShape(answer).details.errors.map((e: any) => e.field);

let tokenSerial = 0;
/** A new registered stablecoin (against the link the tests made), its token identifier unique. */
async function coin(): Promise<any> {
  const digits = [...String(++tokenSerial)].map((d) => 'qpzry9x8gf'[Number(d)]).join('');
  const answer = await post('/stablecoins', {
    providerTokenIdentifier: 'ACME',
    networkTokenIdentifier: `btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k${digits}`,
    network: 'SPARK',
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe('stablecoins', () => {
  it('without a linked provider account a registration is 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', async () => {
    const answer = await post('/stablecoins', {
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
      network: 'SPARK',
    });
    expect(errorShape(answer)).toMatchObject({ status: 404, code: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND' });
  });

  it('links a provider account: 201 ACTIVE SANDBOX, the secret never shown; a replay answers the same; a second link of the account is 409', async () => {
    const body = { provider: 'BRALE', apiClientId: 'client_123', apiClientSecret: 'provider_secret_456' };
    const headers = key();
    const first = await post('/stablecoin-provider-accounts', body, headers);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^StablecoinProviderAccount:/),
      provider: 'BRALE',
      providerAccountId: expect.stringMatching(/^[A-Za-z0-9]{27}$/),
      providerEnvironment: 'SANDBOX',
      status: 'ACTIVE',
    });
    expect(first.text).not.toContain('provider_secret_456');
    expect((await post('/stablecoin-provider-accounts', body, headers)).body).toEqual(first.body);
    const again = await post('/stablecoin-provider-accounts', body);
    expect(errorShape(again)).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect((await t.call('GET', `/stablecoin-provider-accounts/${first.body.id}`)).body).toEqual(first.body);
    const list = await t.call('GET', '/stablecoin-provider-accounts?provider=BRALE&status=ACTIVE');
    expect(list.body).toMatchObject({ data: [first.body], hasMore: false, totalCount: 1 });
  });

  it('registers a stablecoin against the only link: PROVISIONED, NOT_ENABLED; registering the token again is 409', async () => {
    const c = await coin();
    expect(c).toMatchObject({
      id: expect.stringMatching(/^Stablecoin:/),
      symbol: 'ACME',
      providerTokenIdentifier: 'ACME',
      network: 'SPARK',
      decimals: 6,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      stablecoinProviderAccountId: expect.stringMatching(/^StablecoinProviderAccount:/),
    });
    expect((await t.call('GET', `/stablecoins/${c.id}`)).body).toEqual(c);
    const again = await post('/stablecoins', { ...c, stablecoinProviderAccountId: undefined });
    expect(errorShape(again)).toMatchObject({ status: 409, code: 'CONFLICT' });
    const list = await t.call('GET', '/stablecoins?issuanceStatus=PROVISIONED&provider=BRALE');
    expect(list.body.data.map((s: any) => s.id)).toContain(c.id);
    expect((await t.call('GET', '/stablecoins?gridOperationsStatus=ENABLED')).body.data).toEqual([]);
  });

  it('a wire mint: PENDING_FUNDING with wire instructions, PROCESSING after 30 s, COMPLETED after 60 s', async () => {
    const c = await coin();
    const answer = await post(`/stablecoins/${c.id}/mints`, {
      amount: '1000000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: spark },
      description: 'Initial program funding mint',
    });
    expect(answer.status, answer.text).toBe(201);
    const op = answer.body;
    expect(op).toMatchObject({
      id: expect.stringMatching(/^StablecoinOperation:/),
      stablecoinId: c.id,
      operationType: 'MINT',
      status: 'PENDING_FUNDING',
      amount: '1000000',
      source: { type: 'WIRE' },
      fundingInstructions: { rail: 'WIRE' },
      destination: { accountId: spark },
      expiresAt: expect.any(String),
    });
    t.emu.testing.advanceClock(30_000);
    expect((await t.call('GET', `/stablecoin-operations/${op.id}`)).body.status).toBe('PROCESSING');
    t.emu.testing.advanceClock(30_000);
    expect((await t.call('GET', `/stablecoin-operations/${op.id}`)).body).toMatchObject({ status: 'COMPLETED' });
  });

  it('burns: an external-wallet source gets a Spark deposit address; the payout estimate is in cents', async () => {
    const c = await coin();
    const answer = await post(`/stablecoins/${c.id}/burns`, {
      amount: '2500000',
      source: { type: 'EXTERNAL_ACCOUNT' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'ACH_CREDIT' },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      operationType: 'BURN',
      status: 'PENDING_FUNDING',
      fundingInstructions: {
        rail: 'SPARK',
        network: 'SPARK',
        address: expect.stringMatching(/^spark/),
        valueType: 'ACME',
      },
      destination: { accountId: bank, rail: 'ACH_CREDIT' },
      estimatedDelivery: { rail: 'ACH_CREDIT', amount: '250', currency: 'USD' },
    });
    const balance = await post(`/stablecoins/${c.id}/burns`, {
      amount: '10000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'WIRE' },
    });
    expect(balance.body).toMatchObject({ status: 'PENDING_PROVIDER' });
    expect(balance.body.fundingInstructions).toBeUndefined();
    const burns = await t.call('GET', `/stablecoins/${c.id}/operations?operationType=BURN`);
    expect(burns.body.data.map((o: any) => o.id)).toEqual([balance.body.id, answer.body.id]);
    expect((await t.call('GET', `/stablecoins/${c.id}/operations?operationType=MINT`)).body.data).toEqual([]);
  });

  it('an Idempotency-Key replays the first mint; without one the create is 400 naming it', async () => {
    const c = await coin();
    const body = {
      amount: '10000',
      fundingSource: { type: 'ACH_DEBIT', externalAccountId: bank },
      destination: { accountId: spark },
    };
    const headers = key();
    const first = await post(`/stablecoins/${c.id}/mints`, body, headers);
    expect(first.body.status).toBe('PENDING_PROVIDER');
    expect((await post(`/stablecoins/${c.id}/mints`, body, headers)).body.id).toBe(first.body.id);
    expect((await t.call('GET', `/stablecoins/${c.id}/operations`)).body.totalCount).toBe(1);
    expect(fieldsOf(await post(`/stablecoins/${c.id}/mints`, body, {}))).toEqual(['Idempotency-Key']);
  });

  it.each([
    ['nothing', {}, ['amount', 'fundingSource', 'destination']],
    ['a zero amount', { amount: '0' }, ['amount']],
    ['fractions of a cent', { amount: '1000001' }, ['amount']],
    ['an unknown funding type', { fundingSource: { type: 'CASH' } }, ['fundingSource.type']],
    [
      'a reserved funding type',
      { fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: 'x' } },
      ['fundingSource.type'],
    ],
    ['ACH without its account', { fundingSource: { type: 'ACH_DEBIT' } }, ['fundingSource.externalAccountId']],
    ['a destination that is no account id', { destination: { accountId: 'Customer:x' } }, ['destination.accountId']],
  ])('a mint with %s: 400 naming %j', async (_what, change, fields) => {
    const c = await coin();
    const good = { amount: '10000', fundingSource: { type: 'WIRE' }, destination: { accountId: spark } };
    const body = _what === 'nothing' ? {} : { ...good, ...change };
    expect(fieldsOf(await post(`/stablecoins/${c.id}/mints`, body))).toEqual(fields);
  });

  it('accounts of the wrong kind are 400 naming the field; unknown ones 404', async () => {
    const c = await coin();
    const wrong = await post(`/stablecoins/${c.id}/mints`, {
      amount: '10000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: bank },
    });
    expect(fieldsOf(wrong)).toEqual(['destination.accountId']);
    const payout = await post(`/stablecoins/${c.id}/burns`, {
      amount: '10000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: spark, rail: 'WIRE' },
    });
    expect(fieldsOf(payout)).toEqual(['destination.externalAccountId']);
    const unknown = `ExternalAccount:${randomUUID()}`;
    const missing = await post(`/stablecoins/${c.id}/mints`, {
      amount: '10000',
      fundingSource: { type: 'WIRE' },
      destination: { accountId: unknown },
    });
    expect(errorShape(missing).status).toBe(404);
  });

  it.each([
    ['GET', '/stablecoins/Stablecoin:00000000-0000-0000-0000-000000000000', 'REFERENCE_NOT_FOUND'],
    ['GET', '/stablecoins/Stablecoin:00000000-0000-0000-0000-000000000000/operations', 'REFERENCE_NOT_FOUND'],
    ['POST', '/stablecoins/Stablecoin:00000000-0000-0000-0000-000000000000/mints', 'REFERENCE_NOT_FOUND'],
    ['GET', '/stablecoin-operations/StablecoinOperation:00000000-0000-0000-0000-000000000000', 'REFERENCE_NOT_FOUND'],
    [
      'GET',
      '/stablecoin-provider-accounts/StablecoinProviderAccount:00000000-0000-0000-0000-000000000000',
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    ],
  ])('%s %s: 404 %s', async (method, path, code) => {
    // A valid body: the schema check (400) comes before the look-up (404).
    const mint = { amount: '1000', fundingSource: { type: 'WIRE' }, destination: { accountId: 'InternalAccount:x' } };
    const answer = method === 'GET' ? await t.call('GET', path) : await post(path, mint);
    expect(errorShape(answer)).toMatchObject({ status: 404, code });
  });

  it('with two links a registration must name one (400 STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED)', async () => {
    const second = await post('/stablecoin-provider-accounts', {
      provider: 'BRALE',
      apiClientId: 'other',
      apiClientSecret: 's',
    });
    expect(second.status).toBe(201);
    const body = { providerTokenIdentifier: 'TWO', networkTokenIdentifier: 'btkn1zzzzzzzzzzzzz', network: 'SPARK' };
    expect(errorShape(await post('/stablecoins', body))).toMatchObject({
      status: 400,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
    });
    const named = await post('/stablecoins', { ...body, stablecoinProviderAccountId: second.body.id });
    expect(named.body.stablecoinProviderAccountId).toBe(second.body.id);
  });
});

describe('a restart with --state', () => {
  it('an operation still pending carries on to COMPLETED', async () => {
    const statePath = join(tempDir('svc-emu-stablecoin-'), 'state.json');
    const first = await testEmulator({ ...STILL, statePath });
    const call = (path: string, body: object) => first.call('POST', path, { body, headers: key() });
    await call('/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'c', apiClientSecret: 's' });
    const c = (
      await call('/stablecoins', {
        providerTokenIdentifier: 'R',
        networkTokenIdentifier: 'btkn1qqqqqqqq',
        network: 'SPARK',
      })
    ).body;
    const burn = await call(`/stablecoins/${c.id}/burns`, {
      amount: '10000',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: {
        type: 'EXTERNAL_ACCOUNT',
        externalAccountId: await externalAccount(first, undefined, 'USD_ACCOUNT'),
        rail: 'RTP_CREDIT',
      },
    });
    expect(burn.body.status).toBe('PENDING_PROVIDER');
    await first.close();
    const second = await testEmulator({ ...STILL, statePath });
    try {
      second.emu.testing.advanceClock(60_000);
      expect((await second.call('GET', `/stablecoin-operations/${burn.body.id}`)).body.status).toBe('COMPLETED');
    } finally {
      await second.close();
    }
  });
});
