/**
 * The account-type and currency tables (src/service) against the digest of the description
 * (test/contract/api-schema.json): the same 46 types, the rails each response form lists, the assets
 * each wallet network takes, the fields each type's individual beneficiary adds, and a currency entry
 * for every one the tables use.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPES, INDIVIDUAL_BENEFICIARY_EXTRAS } from '../../../src/service/account-types.js';
import { CURRENCIES } from '../../../src/service/currencies.js';

type Schema = Record<string, any>;
const schemas: Record<string, Schema> = JSON.parse(
  readFileSync(new URL('../../contract/api-schema.json', import.meta.url), 'utf8'),
).components.schemas;

/** The enum of `property` anywhere in the schema's allOf parts (following $ref). */
function enumOf(schema: Schema | undefined, property: string): string[] | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return enumOf(schemas[schema.$ref.split('/').pop()], property);
  const own = schema.properties?.[property];
  if (own) return own.enum ?? own.items?.enum;
  for (const part of schema.allOf ?? []) {
    const found = enumOf(part, property);
    if (found) return found;
  }
  return undefined;
}

const prefix = (type: string) => type.split('_')[0]!.charAt(0) + type.split('_')[0]!.slice(1).toLowerCase();

describe('ACCOUNT_TYPES', () => {
  it('has exactly the description’s ExternalAccountType values', () => {
    expect(Object.keys(ACCOUNT_TYPES).sort()).toEqual([...schemas.ExternalAccountType!.enum].sort());
  });

  it.each(Object.entries(ACCOUNT_TYPES).filter(([, t]) => !t.wallet))(
    '%s lists the rails of the description’s response form',
    (type, t) => {
      expect(t.paymentRails).toEqual(enumOf(schemas[`${prefix(type)}AccountInfo`], 'paymentRails'));
    },
  );

  it.each([
    ['ETHEREUM_WALLET', 'PaymentEthereumWalletInfo'],
    ['BASE_WALLET', 'PaymentBaseWalletInfo'],
    ['POLYGON_WALLET', 'PaymentPolygonWalletInfo'],
    ['PLASMA_WALLET', 'PaymentPlasmaWalletInfo'],
    ['SOLANA_WALLET', 'PaymentSolanaWalletInfo'],
    ['TRON_WALLET', 'PaymentTronWalletInfo'],
  ])('%s holds the assets of %s', (type, payment) => {
    expect(ACCOUNT_TYPES[type]!.currencies).toEqual(enumOf(schemas[payment], 'assetType'));
  });

  it('Spark and Lightning wallets hold BTC; every currency a type holds is in the currency table', () => {
    expect(ACCOUNT_TYPES.SPARK_WALLET!.currencies).toEqual(['BTC']);
    expect(ACCOUNT_TYPES.LIGHTNING!.currencies).toEqual(['BTC']);
    for (const [type, t] of Object.entries(ACCOUNT_TYPES)) {
      for (const code of t.currencies) expect(CURRENCIES[code], `${type} ${code}`).toBeDefined();
    }
  });

  it.each(Object.entries(ACCOUNT_TYPES).filter(([, t]) => !t.wallet))(
    '%s: its individual beneficiary adds the fields of the description’s <Cur>Beneficiary',
    (type) => {
      const common = Object.keys(schemas.UsdBeneficiary!.properties);
      const own = Object.keys(schemas[`${prefix(type)}Beneficiary`]!.properties).filter((p) => !common.includes(p));
      expect(INDIVIDUAL_BENEFICIARY_EXTRAS[type] ?? []).toEqual(own);
    },
  );
});
