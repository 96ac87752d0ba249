/**
 * Enums and bounds of the public API description's payment requests (quotes, transfers), shared by
 * the emulator, which refuses anything else, and the CLI, which can check before sending.
 */

export const PURPOSES_OF_PAYMENT = [
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'FAMILY_SUPPORT',
  'SALARY_PAYMENT',
  'OTHER',
] as const;

export const PAYMENT_RAILS = [
  'ACH',
  'ACH_COLOMBIA',
  'BANK_TRANSFER',
  'BRE_B',
  'CIPS',
  'FAST',
  'FASTER_PAYMENTS',
  'FEDNOW',
  'INSTAPAY',
  'MOBILE_MONEY',
  'NEFT',
  'PAYNOW',
  'PESONET',
  'PIX',
  'RTGS',
  'RTP',
  'SEPA',
  'SEPA_INSTANT',
  'SPEI',
  'SWIFT',
  'UNIONPAY',
  'UPI',
  'WIRE',
] as const;

/** `lockedCurrencyAmount` (and transfer amounts): at most 9e15 minor units. */
export const MAX_PAYMENT_AMOUNT = 9_000_000_000_000_000;

/**
 * How long the platform has to call `POST /transactions/{id}/approve` or `/reject` after answering
 * an incoming payment's webhook with 202 (the description: "within 5 seconds"), else it is rejected.
 */
export const PLATFORM_APPROVAL_WINDOW_MS = 5_000;
