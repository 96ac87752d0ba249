/**
 * Trigger inputs checked before any request: every kind of refusal names the input by its key (the
 * CLI shows its flag: test/e2e/core-input-errors.test.ts), a reason code and why; accepted values
 * come back typed; a value to set lands in the request body it names.
 */
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../../src/trigger/catalog.js';
import { checkInputs, externalAccountMismatch, withSet, type RawInputs } from '../../../src/trigger/inputs.js';
import { UsageError } from '../../../src/errors.js';
import { caught } from '../../helpers/caught.js';

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;
const CUSTOMER = 'Customer:11111111-1111-4111-8111-111111111111';
const ACCOUNT = 'InternalAccount:22222222-2222-4222-8222-222222222222';
const EXTERNAL = 'ExternalAccount:33333333-3333-4333-8333-333333333333';
const refusal = (name: string, raw: Partial<RawInputs>) =>
  caught(() => checkInputs(scenario(name), { set: [], ...raw }), UsageError);

describe('trigger inputs: refusals', () => {
  it('a malformed id names its input', () => {
    expect(refusal('card.frozen', { customer: 'cus_1' })).toMatchObject({ input: 'customer', reason: 'NOT_AN_ID' });
    expect(refusal('card.frozen', { account: 'Customer:x' }).problems).toEqual([
      { input: 'account', reason: 'NOT_AN_ID', message: 'must be an id like InternalAccount:<uuid>; got "Customer:x"' },
    ]);
    expect(refusal('transfer.success', { externalAccount: 'nope' }).input).toBe('externalAccount');
  });

  it('a resource the scenario cannot use is refused with the reason', () => {
    expect(refusal('kyc.pending', { customer: CUSTOMER }).message).toContain(
      "kyc.pending cannot reuse your customer: the magic value is the new customer's own",
    );
    expect(refusal('uma.success-usd', { account: ACCOUNT }).message).toContain(
      'uma.success-usd cannot reuse your internal account',
    );
    expect(refusal('beneficiary.matched', { externalAccount: EXTERNAL }).message).toContain(
      'its name check happens when it is created',
    );
    expect(refusal('card.closed', { externalAccount: EXTERNAL }).message).toContain('uses no external account');
  });

  it('an unknown path lists the ones the scenario takes', () => {
    const error = refusal('card.frozen', { set: ['card.colour=red'] });
    expect(error).toMatchObject({ input: 'set', reason: 'UNKNOWN_PATH' });
    expect(error.message).toContain(
      'card.frozen has no settable "card.colour"; it takes customer.fullName, customer.birthDate',
    );
    expect(refusal('card.frozen', { set: ['customer.birthDate'] }).message).toBe(
      'set: takes path=value; got "customer.birthDate"',
    );
  });

  it('a wrong type is refused', () => {
    expect(refusal('card.frozen', { set: ['customer.birthDate=yesterday'] }).message).toContain(
      'must be a date YYYY-MM-DD',
    );
    expect(refusal('card.frozen', { set: ['customer.nationality=usa'] }).message).toContain('two-letter country code');
    expect(refusal('uma.success-usd', { set: ['quote.lockedCurrencyAmount=ten'] }).message).toContain('whole number');
    expect(refusal('uma.success-usd', { set: ['quote.lockedCurrencyAmount=0'] }).message).toContain('at least 1');
    expect(refusal('owner.pending', { set: ['owner.ownershipPercentage=1.5'] }).message).toContain('whole number');
  });

  it('a value that would defeat the magic value is refused, naming the row it needs', () => {
    expect(refusal('kyc.rejected', { set: ['customer.fullName=Jane Roe'] }).message).toContain(
      'keep the last 3 characters "002"',
    );
    expect(refusal('kyb.rejected', { set: ['business.businessInfo.registrationNumber=REG-1'] }).message).toContain(
      'Business KYB',
    );
    expect(refusal('owner.pending', { set: ['owner.personalInfo.lastName=Smith'] }).message).toContain('"001"');
    expect(
      refusal('transfer.success', { set: ['externalAccount.accountInfo.accountNumber=1234567003'] }).message,
    ).toContain('External account transfers');
    expect(
      refusal('transfer.success', { set: ['externalAccount.accountInfo.accountNumber=1234567105'] }).message,
    ).toContain('name check');
    expect(refusal('transfer.success', { set: ['externalAccount.accountInfo.accountNumber=12-34'] }).message).toContain(
      '4 to 34 digits',
    );
    expect(refusal('uma.success-usd', { set: ['quote.destination.umaAddress=$success.eur@x.test'] }).message).toContain(
      '$success.usd@<any domain>',
    );
    expect(refusal('card.frozen', { set: ['customer.fullName=Carl 004'] }).message).toContain('issuer reject');
    expect(refusal('card.frozen', { set: ['customer.fullName=Carl 002'] }).message).toContain('APPROVED');
    expect(refusal('card.issuer-rejected', { set: ['customer.fullName=Carl'] }).message).toContain('ending in 004');
  });

  it('contradictions and repeats are refused; several problems come in one error naming every input', () => {
    expect(refusal('card.frozen', { customer: CUSTOMER, set: ['customer.birthDate=1980-01-01'] }).message).toContain(
      'but the given customer is reused',
    );
    expect(refusal('card.frozen', { set: ['customer.email=a@b.c', 'customer.email=d@e.f'] }).message).toContain(
      'given twice',
    );
    const all = refusal('kyc.pending', { customer: CUSTOMER, account: 'bad', set: ['nope=1'] });
    expect(all).toMatchObject({ input: 'customer,account,set', reason: 'INVALID_INPUTS' });
    expect(all.problems?.map((p) => p.input)).toEqual(['customer', 'account', 'set']);
    expect(all.message).not.toMatch(/--[a-z]/);
  });
});

describe('trigger inputs: accepted', () => {
  it('typed values, magic-preserving overrides and reusable resources', () => {
    expect(
      checkInputs(scenario('kyc.rejected'), { set: ['customer.fullName=Jane Roe 002', 'customer.nationality=GB'] }).set,
    ).toEqual({ 'customer.fullName': 'Jane Roe 002', 'customer.nationality': 'GB' });
    expect(
      checkInputs(scenario('uma.success-usd'), {
        set: ['quote.destination.umaAddress=$success.usd@my.test', 'quote.lockedCurrencyAmount=250'],
      }).set,
    ).toEqual({ 'quote.destination.umaAddress': '$success.usd@my.test', 'quote.lockedCurrencyAmount': 250 });
    expect(checkInputs(scenario('card.closed'), { customer: CUSTOMER, account: ACCOUNT, set: [] })).toEqual({
      customerId: CUSTOMER,
      accountId: ACCOUNT,
      set: {},
    });
    expect(
      checkInputs(scenario('transfer.bank-rejected'), { externalAccount: EXTERNAL, set: [] }).externalAccountId,
    ).toBe(EXTERNAL);
  });

  it('an existing external account stands in only when its identifier selects the same row', () => {
    const usd = (accountNumber?: string) => ({
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber },
    });
    expect(externalAccountMismatch(scenario('transfer.bank-rejected'), usd('9999004'))).toBeUndefined();
    expect(externalAccountMismatch(scenario('transfer.bank-rejected'), usd('9999010'))).toContain('another row');
    expect(externalAccountMismatch(scenario('transfer.success'), usd())).toContain('no identifier');
  });

  it('any account type runs a quote.* scenario by its primary identifier; transfer.* needs dollars', () => {
    const pix = { currency: 'BRL', accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: 'ada003@pix.example.com' } };
    const upi = { currency: 'INR', accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'ada002@upi' } };
    expect(externalAccountMismatch(scenario('quote.long'), pix)).toBeUndefined();
    expect(externalAccountMismatch(scenario('quote.long'), upi)).toContain('another row');
    expect(externalAccountMismatch(scenario('transfer.success'), pix)).toContain('holds BRL');
  });

  it('withSet puts values at their path under the prefix only', () => {
    const inputs = { set: { 'customer.address.city': 'Lyon', 'customer.fullName': 'A 001', 'quote.description': 'x' } };
    expect(withSet(inputs, 'customer', { fullName: 'B', address: { city: 'Paris', country: 'FR' } })).toEqual({
      fullName: 'A 001',
      address: { city: 'Lyon', country: 'FR' },
    });
  });
});
