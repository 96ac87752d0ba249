/**
 * A beneficiary keeps every field the description gives it for its account type: COP's identity
 * document, CAD's registration number, the fields every individual and every business has, and no
 * more than a wallet's individual beneficiary has. They come back on create, GET and list, for a
 * customer and for the platform; a wrong type or value for a type's own fields is refused naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';
import { ACCOUNT_SAMPLES } from './account-samples.js';
import { newCustomer } from './support.js';

let t: TestEmulator;
let customerId: string;
beforeAll(async () => {
  t = await testEmulator();
  customerId = (await newCustomer(t)).id;
});
afterAll(() => t.close());

const address = { line1: '7 Carrera 43A', city: 'Medellin', postalCode: '050021', country: 'CO' };
const individual = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Ana Maria Restrepo',
  birthDate: '1988-03-14',
  nationality: 'CO',
  email: 'ana.restrepo@example.com',
  phoneNumber: '+573001234567',
  countryOfResidence: 'CO',
  address,
};

/** The sample of `type` with `beneficiary`, its account number made unique by `n` (ending 000: no magic). */
function info(type: 'COP_ACCOUNT' | 'CAD_ACCOUNT', beneficiary: Record<string, unknown>, n: number) {
  return { ...ACCOUNT_SAMPLES[type]!.accountInfo, accountNumber: `${n}4567000`, beneficiary };
}

const CASES = [
  ['COP_ACCOUNT', 'COP', { ...individual, documentType: 'CC', documentNumber: '1017234567' }],
  ['CAD_ACCOUNT', 'CAD', { ...individual, countryOfResidence: 'CA', registrationNumber: 'REG-7731' }],
  [
    'CAD_ACCOUNT',
    'CAD',
    {
      beneficiaryType: 'BUSINESS',
      legalName: 'Maple Freight Ltd',
      registrationNumber: 'BC1234567',
      taxId: '123456789RC0001',
      email: 'billing@maple.example.com',
      phoneNumber: '+16045550123',
      countryOfResidence: 'CA',
      address: { ...address, country: 'CA' },
    },
  ],
] as const;

describe.each([
  ['/customers/external-accounts', 'customer'],
  ['/platform/external-accounts', 'platform'],
] as const)('%s', (path, scope) => {
  it.each(CASES.map((c, i) => [c[0], (c[2] as { beneficiaryType: string }).beneficiaryType, i] as const))(
    '%s, %s beneficiary: every field back on create, GET and list',
    async (type, _kind, i) => {
      const [, currency, beneficiary] = CASES[i]!;
      const body = {
        ...(scope === 'customer' ? { customerId } : {}),
        currency,
        accountInfo: info(type, beneficiary, i + 1),
      };
      const created = await t.call('POST', path, { body });
      expect(created.status, created.text).toBe(201);
      expect(created.body.accountInfo.beneficiary).toEqual(beneficiary);
      const read = await t.call('GET', `${path}/${created.body.id}`);
      expect(read.body.accountInfo.beneficiary).toEqual(beneficiary);
      const list = await t.call('GET', `${path}?currency=${currency}`);
      const listed = list.body.data.find((a: { id: string }) => a.id === created.body.id);
      expect(listed.accountInfo.beneficiary).toEqual(beneficiary);
    },
  );
});

it('a wallet’s individual beneficiary keeps its name and country of residence, nothing the description does not give it', async () => {
  const { accountInfo, currency } = ACCOUNT_SAMPLES.SOLANA_WALLET!;
  const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ana Maria Restrepo', countryOfResidence: 'CO' };
  const created = await t.call('POST', '/customers/external-accounts', {
    body: {
      customerId,
      currency,
      accountInfo: { ...accountInfo, beneficiary: { ...beneficiary, email: 'a@example.com' } },
    },
  });
  expect(created.status, created.text).toBe(201);
  expect(created.body.accountInfo.beneficiary).toEqual(beneficiary);
});

describe('a wrong value for a type’s own beneficiary field is 400 INVALID_INPUT naming it, and nothing is created', () => {
  it.each([
    ['COP_ACCOUNT', 'COP', { documentType: 'DNI', documentNumber: '1017234567' }, 'documentType'],
    ['COP_ACCOUNT', 'COP', { documentType: 'CC', documentNumber: 1017234567 }, 'documentNumber'],
    ['COP_ACCOUNT', 'COP', { documentType: 'CC', documentNumber: '' }, 'documentNumber'],
    ['COP_ACCOUNT', 'COP', { documentType: 'CC', documentNumber: '1'.repeat(51) }, 'documentNumber'],
    ['CAD_ACCOUNT', 'CAD', { registrationNumber: 7731 }, 'registrationNumber'],
  ] as const)('%s %s %j', async (type, currency, fields, field) => {
    const before = (await t.call('GET', `/customers/external-accounts?customerId=${customerId}`)).body.data.length;
    const answer = await t.call('POST', '/customers/external-accounts', {
      body: { customerId, currency, accountInfo: info(type, { ...individual, ...fields }, 9) },
    });
    const error = errorShape(answer);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const named = `accountInfo.beneficiary.${field}`;
    expect(error.details.errors.map((e: { field: string }) => e.field)).toEqual([named]);
    expect(error.message).toContain(named);
    const after = (await t.call('GET', `/customers/external-accounts?customerId=${customerId}`)).body.data.length;
    expect(after).toBe(before);
  });
});
