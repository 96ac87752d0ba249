/**
 * How the emulator reads the accountInfo of each of the description's 46 types
 * (ExternalAccountCreateInfoOneOf, discriminated by accountType; their currencies and rails are the
 * data of src/service/account-types.ts). Wallet addresses get the shape of their network and a
 * Lightning account exactly one destination (the emulator's rules: the description gives none).
 * Every other type, the bank accounts included, keeps the string fields it was given: their rules
 * (required fields, patterns, lengths, enums) are the description's, checked by the kernel before
 * any handler runs.
 */
import type { Fields } from '../../kernel/fields.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A Solana address: an ed25519 key in base58 (32 to 44 characters). */
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** A Tron address: base58check, 34 characters starting with T. */
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
/** The description gives wallet addresses no shape; one without spaces is all the emulator asks. */
const WALLET_ADDRESS = /^\S{1,256}$/;
const LIGHTNING_ADDRESS = /^[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** What the emulator reads from an accountInfo beyond the description's table (src/service/account-types). */
export interface Variant {
  /** Reads the variant's fields from `given` through f (errors go to f); returns the fields kept. */
  read(f: Fields, given: Record<string, unknown>): Record<string, unknown>;
  /** Whether ownership can be proven by a wallet signature (EVM: EIP-191). */
  signable?: boolean;
}

function pick(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

function wallet(addressPattern: RegExp, signable = false): Variant {
  return {
    signable,
    read: (f) =>
      pick({
        address: f.string('address', { pattern: addressPattern }),
        vaspName: f.string('vaspName'),
      }),
  };
}

export const VARIANTS: Readonly<Record<string, Variant>> = {
  SPARK_WALLET: wallet(WALLET_ADDRESS),
  ETHEREUM_WALLET: wallet(EVM_ADDRESS, true),
  BASE_WALLET: wallet(EVM_ADDRESS, true),
  POLYGON_WALLET: wallet(EVM_ADDRESS, true),
  PLASMA_WALLET: wallet(EVM_ADDRESS, true),
  SOLANA_WALLET: wallet(SOLANA_ADDRESS),
  TRON_WALLET: wallet(TRON_ADDRESS),
  LIGHTNING: {
    read(f) {
      const values = pick({
        // Longer than the emulator's default bound on stored text: an invoice can run long.
        invoice: f.string('invoice', { maxLength: 2048 }),
        bolt12: f.string('bolt12', { maxLength: 2048 }),
        lightningAddress: f.string('lightningAddress', { pattern: LIGHTNING_ADDRESS }),
      });
      const given = ['invoice', 'bolt12', 'lightningAddress'].filter((k) => f.has(k));
      if (given.length !== 1) f.add('lightningAddress', 'give exactly one of invoice, bolt12, lightningAddress');
      return values;
    },
  },
};

/** Fields the emulator sets or reads apart: the type itself, the beneficiary, the response-only rails. */
const NOT_COPIED = new Set(['accountType', 'beneficiary', 'paymentRails']);

/**
 * A type whose fields the description alone rules: each string field is kept as given (bounded).
 * Every field these types declare is a string, and the kernel has checked their types, so a value of
 * another type is a property the description does not declare and does not forbid (the official SDK
 * sends `countries: ["BR"]`): it is ignored, not refused.
 */
const described: Variant = {
  read(f, given) {
    return pick(
      Object.fromEntries(
        Object.entries(given)
          .filter(([k, v]) => !NOT_COPIED.has(k) && typeof v === 'string')
          .map(([k]) => [k, f.string(k)]),
      ),
    );
  },
};

export function variantOf(accountType: string): Variant {
  return VARIANTS[accountType] ?? described;
}

/** Types a pull may take money from (bank accounts with a debit rail). */
export const PULL_CAPABLE = new Set(['USD_ACCOUNT', 'EUR_ACCOUNT', 'MXN_ACCOUNT']);
