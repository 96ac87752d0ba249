/**
 * The accountInfo variants the emulator takes (the description's ExternalAccountCreateInfoOneOf,
 * discriminated by accountType): bank accounts in the three currencies it quotes and the wallets
 * whose identifiers the spec's magic-digit rule names. Field rules are the description's.
 */
import type { Fields } from '../../kernel/fields.js';

const SWIFT = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const ROUTING = /^[0-9]{9}$/;
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/;
const CLABE = /^[0-9]{18}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A Solana address: an ed25519 key in base58 (32 to 44 characters). */
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** A Tron address: base58check, 34 characters starting with T. */
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
/** The description gives wallet addresses no shape; one without spaces is all the emulator asks. */
const WALLET_ADDRESS = /^\S{1,256}$/;
const LIGHTNING_ADDRESS = /^[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export interface Variant {
  /** The one currency this variant holds in the emulator (wallets: dollar stablecoins, quoted as USD). */
  currency: string;
  /**
   * The stablecoins a wallet may be created in besides `currency` (the description's assetType of
   * the network's payment info): kept as the account's `currency`, moved as dollars.
   */
  assets?: readonly string[];
  wallet: boolean;
  /** Response-only paymentRails of bank variants. */
  paymentRails?: readonly string[];
  /** Reads the variant's fields (errors go to f); returns the fields given. */
  read(f: Fields): Record<string, unknown>;
  /** Whether ownership can be proven by a wallet signature (EVM: EIP-191). */
  signable?: boolean;
}

function pick(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

function wallet(addressPattern: RegExp, assets: readonly string[], signable = false): Variant {
  return {
    currency: 'USD',
    assets,
    wallet: true,
    signable,
    read: (f) =>
      pick({
        address: f.string('address', { required: true, pattern: addressPattern }),
        vaspName: f.string('vaspName', { minLength: 1, maxLength: 255 }),
      }),
  };
}

export const VARIANTS: Readonly<Record<string, Variant>> = {
  USD_ACCOUNT: {
    currency: 'USD',
    wallet: false,
    paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
    read: (f) =>
      pick({
        accountNumber: f.string('accountNumber', { required: true, minLength: 1, maxLength: 34 }),
        routingNumber: f.string('routingNumber', { required: true, pattern: ROUTING }),
        bankName: f.string('bankName', { minLength: 1, maxLength: 140 }),
        bankAccountType: f.string('bankAccountType', { enum: ['CHECKING', 'SAVINGS'] }),
        intermediaryBankName: f.string('intermediaryBankName', { minLength: 1, maxLength: 140 }),
        intermediaryRoutingNumber: f.string('intermediaryRoutingNumber', { pattern: ROUTING }),
        fiToFiInformation: f.string('fiToFiInformation', { maxLength: 210 }),
      }),
  },
  EUR_ACCOUNT: {
    currency: 'EUR',
    wallet: false,
    paymentRails: ['SEPA', 'SEPA_INSTANT'],
    read: (f) =>
      pick({
        iban: f.string('iban', { required: true, pattern: IBAN, minLength: 15, maxLength: 34 }),
        swiftCode: f.string('swiftCode', { pattern: SWIFT }),
      }),
  },
  MXN_ACCOUNT: {
    currency: 'MXN',
    wallet: false,
    paymentRails: ['SPEI'],
    read: (f) => pick({ clabeNumber: f.string('clabeNumber', { required: true, pattern: CLABE }) }),
  },
  // Assets per network as the description's Payment<Network>WalletInfo.assetType lists them.
  SPARK_WALLET: wallet(WALLET_ADDRESS, []),
  ETHEREUM_WALLET: wallet(EVM_ADDRESS, ['USDC', 'USDT'], true),
  BASE_WALLET: wallet(EVM_ADDRESS, ['USDC'], true),
  POLYGON_WALLET: wallet(EVM_ADDRESS, ['USDC'], true),
  PLASMA_WALLET: wallet(EVM_ADDRESS, ['USDT'], true),
  SOLANA_WALLET: wallet(SOLANA_ADDRESS, ['USDC', 'USDT']),
  TRON_WALLET: wallet(TRON_ADDRESS, ['USDT']),
  LIGHTNING: {
    currency: 'USD',
    wallet: true,
    read(f) {
      const values = pick({
        invoice: f.string('invoice', { minLength: 1, maxLength: 2048 }),
        bolt12: f.string('bolt12', { minLength: 1, maxLength: 2048 }),
        lightningAddress: f.string('lightningAddress', { pattern: LIGHTNING_ADDRESS }),
      });
      const given = ['invoice', 'bolt12', 'lightningAddress'].filter((k) => f.has(k));
      if (given.length !== 1) f.add('lightningAddress', 'give exactly one of invoice, bolt12, lightningAddress');
      return values;
    },
  },
};

export const ACCOUNT_TYPES = Object.keys(VARIANTS);
/** Every stablecoin some wallet variant takes. */
export const WALLET_ASSETS = [...new Set(Object.values(VARIANTS).flatMap((v) => v.assets ?? []))];
/** Variants a pull may take money from (bank accounts with a debit rail). */
export const PULL_CAPABLE = new Set(['USD_ACCOUNT', 'EUR_ACCOUNT', 'MXN_ACCOUNT']);
