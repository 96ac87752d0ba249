/** The money pieces that are pure functions: EVM addresses (a public vector), the primary identifier, quote pricing. */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { eip191Digest, evmAddress, verifyEip191 } from '../../../src/emulator/features/external-accounts/eip191.js';
import {
  PER_USD,
  type RateSnapshot,
  convert,
  costOf,
  platformFee,
  price,
  rates,
} from '../../../src/emulator/features/exchange-rates/rates.js';
import { CURRENCY_CODES } from '../../../src/service/currencies.js';
import { primaryIdentifier } from '../../../src/service/money-magic.js';

describe('EIP-191', () => {
  it('derives the well-known address of private key 1', () => {
    const one = new Uint8Array(32);
    one[31] = 1;
    expect(evmAddress(secp256k1.getPublicKey(one))).toBe('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('accepts v as 27/28 or 0/1, refuses another message, a malformed signature and another signer', () => {
    const secret = secp256k1.utils.randomSecretKey();
    const address = evmAddress(secp256k1.getPublicKey(secret));
    const sig = secp256k1.sign(eip191Digest('prove it'), secret, { prehash: false, format: 'recovered' });
    const rs = Buffer.from(sig.subarray(1)).toString('hex');
    expect(verifyEip191(address, 'prove it', `0x${rs}${(sig[0]! + 27).toString(16)}`)).toBe(true);
    expect(verifyEip191(address.toUpperCase().replace('0X', '0x'), 'prove it', `${rs}0${sig[0]}`)).toBe(true);
    expect(verifyEip191(address, 'prove that', `0x${rs}${(sig[0]! + 27).toString(16)}`)).toBe(false);
    expect(verifyEip191(address, 'prove it', '0x1234')).toBe(false);
    expect(verifyEip191(address, 'prove it', `0x${rs}1d`)).toBe(false);
    expect(
      verifyEip191('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf', 'prove it', `0x${rs}${(sig[0]! + 27).toString(16)}`),
    ).toBe(false);
  });
});

describe('primaryIdentifier', () => {
  it.each([
    [{ accountType: 'USD_ACCOUNT', accountNumber: '123456002', routingNumber: '021000021' }, '123456002'],
    [{ accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013003' }, 'DE89370400440532013003'],
    [{ accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777004' }, '002010077777777004'],
    [{ accountType: 'SPARK_WALLET', address: 'sp1qabc005' }, 'sp1qabc005'],
    [{ accountType: 'LIGHTNING', lightningAddress: 'ada006@wallet.example.com' }, 'ada006'],
    [{ accountType: 'BRL_ACCOUNT', pixKey: 'ada007@pix.example.com', pixKeyType: 'EMAIL' }, 'ada007'],
    [{ accountType: 'INR_ACCOUNT', vpa: 'ada008@upi' }, 'ada008'],
    [{ accountType: 'KES_ACCOUNT', phoneNumber: '+254712345009' }, '+254712345009'],
  ])('%j → %s', (info, expected) => {
    expect(primaryIdentifier(info)).toBe(expected);
  });
});

describe('price', () => {
  // Two sending units buy one receiving unit (the description's direction: sending per receiving).
  const snapshot: RateSnapshot = { updatedAtMs: 0, rate: (from, to) => (from === to ? 1 : 2) };
  it('SENDING: the fee comes off the sending amount before converting, rounding down what is received', () => {
    expect(price(snapshot, 'USD', 'EUR', 'SENDING', 1_031)).toEqual({
      totalSendingAmount: 1_031,
      totalReceivingAmount: 500,
      exchangeRate: 2,
      feesIncluded: 30,
    });
    expect(price(snapshot, 'USD', 'EUR', 'SENDING', 31)).toBeUndefined();
  });
  it('RECEIVING: the receiving amount is exact; the sender pays it rounded up, plus the fee', () => {
    expect(price(snapshot, 'USD', 'EUR', 'RECEIVING', 1_001)).toEqual({
      totalSendingAmount: 2_002 + 30,
      totalReceivingAmount: 1_001,
      exchangeRate: 2,
      feesIncluded: 30,
    });
  });
  it("converts between the currencies' smallest units (cents, satoshis, micro-dollars, whole dong)", () => {
    expect(convert(snapshot, 200, 'USD', 'BTC')).toBe(100_000_000); // 2.00 USD → 1 BTC
    expect(convert(snapshot, 200, 'USD', 'USDC')).toBe(1_000_000); // → 1 USDC
    expect(convert(snapshot, 200, 'USD', 'VND')).toBe(1); // → 1 dong
    expect(costOf(snapshot, 1, 'USD', 'VND')).toBe(200);
  });
});

describe('the fixed rate table', () => {
  it('is the same at every moment: USD→INR is 82.5 rupees a dollar, given as dollars per rupee', () => {
    const at = (ms: number) => rates({ now: () => ms } as never);
    for (const ms of [0, 299_999, 300_000, 86_400_000 * 365]) expect(at(ms).rate('USD', 'INR')).toBe(0.01212121212);
    expect(at(0).rate('INR', 'USD')).toBe(82.5);
    expect(price(at(0), 'USD', 'INR', 'SENDING', 10_000)).toMatchObject({ totalReceivingAmount: 822_525 });
  });
  it('has a rate and a fee for every currency the description names', () => {
    for (const code of CURRENCY_CODES) {
      expect(PER_USD[code], code).toBeGreaterThan(0);
      expect(platformFee(code), code).toBeGreaterThanOrEqual(1);
    }
  });
});
