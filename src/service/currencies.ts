/**
 * Every currency the public API description names: the currencies of its external-account types
 * (ExternalAccountType), the ARS of its payment instructions, and the assets its wallets hold (BTC
 * on Spark and Lightning, the USDC and USDT stablecoins). Decimals are ISO 4217's (the description's
 * examples agree: INR 2, USDC 6); BTC amounts are satoshis. SLV is the description's code for El
 * Salvador's accounts (not an ISO code); it is given two decimals.
 */

export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

// [code, name, symbol, decimals]
const ROWS: readonly (readonly [string, string, string, number])[] = [
  ['AED', 'UAE Dirham', 'د.إ', 2],
  ['ARS', 'Argentine Peso', '$', 2],
  ['BDT', 'Bangladeshi Taka', '৳', 2],
  ['BRL', 'Brazilian Real', 'R$', 2],
  ['BTC', 'Bitcoin', '₿', 8],
  ['BWP', 'Botswana Pula', 'P', 2],
  ['CAD', 'Canadian Dollar', '$', 2],
  ['CNY', 'Chinese Yuan', '¥', 2],
  ['COP', 'Colombian Peso', '$', 2],
  ['DKK', 'Danish Krone', 'kr', 2],
  ['EGP', 'Egyptian Pound', 'E£', 2],
  ['EUR', 'Euro', '€', 2],
  ['GBP', 'Pound Sterling', '£', 2],
  ['GHS', 'Ghanaian Cedi', '₵', 2],
  ['GTQ', 'Guatemalan Quetzal', 'Q', 2],
  ['HKD', 'Hong Kong Dollar', '$', 2],
  ['HTG', 'Haitian Gourde', 'G', 2],
  ['IDR', 'Indonesian Rupiah', 'Rp', 2],
  ['INR', 'Indian Rupee', '₹', 2],
  ['JMD', 'Jamaican Dollar', '$', 2],
  ['KES', 'Kenyan Shilling', 'KSh', 2],
  ['MWK', 'Malawian Kwacha', 'MK', 2],
  ['MXN', 'Mexican Peso', '$', 2],
  ['MYR', 'Malaysian Ringgit', 'RM', 2],
  ['NGN', 'Nigerian Naira', '₦', 2],
  ['PHP', 'Philippine Peso', '₱', 2],
  ['PKR', 'Pakistani Rupee', '₨', 2],
  ['RWF', 'Rwandan Franc', 'FRw', 0],
  ['SGD', 'Singapore Dollar', '$', 2],
  ['SLV', 'Salvadoran Colón', '₡', 2],
  ['THB', 'Thai Baht', '฿', 2],
  ['TZS', 'Tanzanian Shilling', 'TSh', 2],
  ['UGX', 'Ugandan Shilling', 'USh', 0],
  ['USD', 'United States Dollar', '$', 2],
  ['USDC', 'USD Coin', '', 6],
  ['USDT', 'Tether USD', '', 6],
  ['VND', 'Vietnamese Dong', '₫', 0],
  ['XAF', 'Central African CFA Franc', 'FCFA', 0],
  ['XOF', 'West African CFA Franc', 'CFA', 0],
  ['ZAR', 'South African Rand', 'R', 2],
  ['ZMW', 'Zambian Kwacha', 'ZK', 2],
];

export const CURRENCIES: Readonly<Record<string, Currency>> = Object.fromEntries(
  ROWS.map(([code, name, symbol, decimals]) => [code, { code, name, symbol, decimals }]),
);

/** Every code, alphabetical. */
export const CURRENCY_CODES: readonly string[] = ROWS.map(([code]) => code);
