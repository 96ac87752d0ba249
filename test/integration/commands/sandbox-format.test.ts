/** The pure helpers behind the sandbox summaries: exact money formatting and the UMA magic table. */
import { describe, expect, it } from 'vitest';
import { formatMinorUnits, formatMoney } from '../../../src/sandbox/format-money.js';
import { umaMagic } from '../../../src/sandbox/uma.js';
import { describeTransaction } from '../../../commands/sandbox/summary.js';

describe('money', () => {
  it.each([
    [0, 2, '0.00'],
    [5, 2, '0.05'],
    [100000, 2, '1,000.00'],
    [100_000_000_000, 2, '1,000,000,000.00'],
    [9007199254740991, 2, '90,071,992,547,409.91'],
    [1234, 0, '1,234'],
    [1234567, 3, '1,234.567'],
    [-250, 2, '-2.50'],
  ])('%d with %d decimals is %s', (amount, decimals, text) => {
    expect(formatMinorUnits(amount, decimals)).toBe(text);
  });

  it('reads the service money shape, a bare code, and refuses what is not money', () => {
    expect(formatMoney({ amount: 100000, currency: { code: 'USD', decimals: 2 } })).toBe('1,000.00 USD');
    expect(formatMoney({ amount: 5, currency: 'EUR' })).toBe('0.05 EUR');
    expect(formatMoney({ amount: '12.5' as unknown as number })).toBeUndefined();
    expect(formatMoney(undefined)).toBeUndefined();
  });
});

describe('UMA magic addresses', () => {
  it.each([
    ['$success.usd@sandbox.example.com', 'success', 'USD'],
    ['$success.MXN@x.io', 'success', 'MXN'],
    ['$pending.long.usd@x.io', 'pending.long', 'USD'],
    ['$fail.compliance.usd@x.io', 'fail.compliance', 'USD'],
  ])('%s selects %s in %s', (address, scenario, currency) => {
    expect(umaMagic(address)).toMatchObject({ scenario, currency });
  });

  it.each(['$alice@example.com', '$success.gbp@x.io', '$pending.long.eur@x.io', '$fail.compliance.mxn@x.io'])(
    '%s is not magic',
    (address) => {
      expect(umaMagic(address)).toBeUndefined();
    },
  );
});

it('describeTransaction copes with an empty or odd body', () => {
  expect(describeTransaction(undefined)).toBe('no transaction details returned');
  expect(describeTransaction({ id: 'Transaction:1', status: 'PENDING', amount: { amount: 1, currency: 'USD' } })).toBe(
    'Transaction:1, status PENDING, 0.01 USD',
  );
});
