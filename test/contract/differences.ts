/**
 * Where the emulator answers differently from the service's public API description on purpose. The
 * contract check (check-exchanges.ts) forgives exactly these and nothing else.
 *
 * SPEC_DIFFERENCES: our spec (../shared/spec/service-spec.md) wins every disagreement with the
 * description; each entry names the spec clause that mandates the difference. Add one only with
 * such a clause: a difference the spec does not mandate is a bug of the emulator to fix.
 */

import { readFileSync } from 'node:fs';

export interface Difference {
  /** `METHOD /path/{template}` as the description names it, `webhook <TYPE>`, or `*` for any operation. */
  operation: string;
  /** What differs: an undeclared response status, a response body, a request, or a webhook body. */
  kind: 'status' | 'response' | 'request' | 'webhook';
  /** The response status it is about (any when absent). */
  status?: number;
  /** Only for calls with an agent's Bearer token. */
  agentOnly?: boolean;
  /** Only for bodies this accepts (the response body, or the request body for `request`). */
  body?: (body: unknown) => boolean;
  /** The spec clause behind it. */
  why: string;
}

/** The spec's WalletOperationProcessing body: `{status: "PROCESSING", message?}`, nothing else. */
const isProcessing = (body: unknown): boolean => {
  const b = body as Record<string, unknown> | null;
  return b?.status === 'PROCESSING' && Object.keys(b).every((k) => k === 'status' || k === 'message');
};

const SIGNED_RETRIES = [
  'POST /auth/credentials',
  'DELETE /auth/credentials/{id}',
  'POST /auth/credentials/{id}/verify',
  'DELETE /auth/sessions/{id}',
  'POST /auth/sessions/{id}/refresh',
  'POST /internal-accounts/{id}/export',
  'PATCH /internal-accounts/{id}',
];

const PROCESSING_CLAUSE =
  'spec "WalletOperationProcessing (200 body)" and refresh flow rule 7: a signed retry whose provider activity is in flight answers 200 {status: PROCESSING}';
const TWO_STEP_EXECUTE =
  'spec Authentication 3: quote execute from an embedded wallet is a two-step signed retry (202 SignedRequestChallenge first)';

/** The emulator's schema refusal: 400 INVALID_INPUT with `details.errors[]`, each naming its field and rule. */
const isSchemaRefusal = (body: unknown): boolean => {
  const b = body as { code?: unknown; details?: { errors?: { field?: unknown; rule?: unknown }[] } } | null;
  const errors = b?.details?.errors;
  return (
    b?.code === 'INVALID_INPUT' &&
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((e) => typeof e.field === 'string' && typeof e.rule === 'string')
  );
};

export const SPEC_DIFFERENCES: readonly Difference[] = [
  {
    operation: '*',
    kind: 'status',
    status: 400,
    body: isSchemaRefusal,
    why: 'spec Errors: a request that breaks a field rule is 400 INVALID_INPUT listing every invalid field, on every operation, including those whose description declares no 400 (a required query parameter left out of GET /sca/factors, a malformed path or query value)',
  },
  // Where the description declares no 200 (refresh), the status differs; where it does, the body.
  ...SIGNED_RETRIES.flatMap((operation): Difference[] => [
    { operation, kind: 'status', status: 200, body: isProcessing, why: PROCESSING_CLAUSE },
    { operation, kind: 'response', status: 200, body: isProcessing, why: PROCESSING_CLAUSE },
  ]),
  { operation: 'POST /quotes/{quoteId}/execute', kind: 'status', status: 202, why: TWO_STEP_EXECUTE },
  { operation: 'POST /agents/me/quotes/{quoteId}/execute', kind: 'status', status: 202, why: TWO_STEP_EXECUTE },
  {
    operation: '*',
    kind: 'status',
    status: 403,
    agentOnly: true,
    why: 'spec Authentication 2: Bearer is accepted across the service and agent credentials are bound to their customer and subject to the policy; a refusal of the policy or the binding is 403 (the description declares platform operations Basic-only, api-facts.md difference 2)',
  },
  {
    operation: '*',
    kind: 'status',
    status: 404,
    agentOnly: true,
    why: "spec Authentication 2: agent credentials are bound to their customer, so another customer's records are unknown to an agent (404) on every operation it may call",
  },
  {
    operation: '*',
    kind: 'status',
    status: 503,
    body: (body) =>
      (body as { code?: string; details?: { stateFile?: string } })?.code === 'SERVICE_UNAVAILABLE' &&
      typeof (body as { details?: { stateFile?: string } }).details?.stateFile === 'string',
    why: 'spec Errors (the error body) with DESIGN.md "State", where the spec is silent about the emulator: a write its --state file cannot save (disk full, file size limit) is not acknowledged, on any operation: 503 SERVICE_UNAVAILABLE, the description\'s Error503 body',
  },
];

/** The currencies of the description's wallets: its PaymentRail enum has no value for their networks. */
const CRYPTO = new Set(['BTC', 'USDC', 'USDT']);

const railOnlyMissingForCrypto = (body: unknown): boolean => {
  const rows = (body as { data?: { destinationCurrency?: { code?: string }; destinationPaymentRail?: string }[] })
    ?.data;
  return (
    Array.isArray(rows) &&
    rows.every((r) => r.destinationPaymentRail !== undefined || CRYPTO.has(r.destinationCurrency?.code ?? ''))
  );
};

/** The description's PaymentAccountType: the accountTypes a payment instruction may have. */
const PAYMENT_ACCOUNT_TYPES = new Set<string>(
  JSON.parse(readFileSync(new URL('./api-schema.json', import.meta.url), 'utf8')).components.schemas.PaymentAccountType
    .enum,
);

/** Every payment instruction outside PaymentAccountType is a `<CUR>_ACCOUNT` of a currency's own branch. */
const fundedOutsidePaymentAccountTypes = (body: unknown): boolean => {
  const instructions = (body as { paymentInstructions?: { accountOrWalletInfo?: { accountType?: string } }[] })
    ?.paymentInstructions;
  if (!Array.isArray(instructions)) return false;
  const outside = instructions
    .map((i) => i.accountOrWalletInfo?.accountType ?? '')
    .filter((type) => !PAYMENT_ACCOUNT_TYPES.has(type));
  return outside.length > 0 && outside.every((type) => /^[A-Z]{3}_ACCOUNT$/.test(type));
};

/**
 * DESCRIPTION_GAPS: where the description contradicts itself, so no answer can satisfy all of it.
 * Each entry says which parts disagree and which one the emulator follows. The check forgives only
 * these bodies.
 *
 * Not checked, listed for readers: the description's quote examples (POST /quotes, the agent
 * action examples: USD→EUR `exchangeRate: 0.92`, USD→INR `92.5`, and the transaction examples with
 * `exchangeRate: 0.92`) give receiving units per sending unit, while its ExchangeRate, Quote and
 * Transaction schemas define `exchangeRate` as "Number of sending currency units per receiving
 * currency unit" and its exchange-rate examples agree (USD→INR `0.012121`). The emulator follows
 * the schemas' text.
 */
export const DESCRIPTION_GAPS: readonly Difference[] = [
  {
    operation: 'GET /exchange-rates',
    kind: 'response',
    status: 200,
    body: railOnlyMissingForCrypto,
    why: 'ExchangeRate requires destinationPaymentRail from PaymentRail, which has no value for BTC, USDC or USDT, yet the description names those currencies for its wallets (SPARK_WALLET, LIGHTNING, the stablecoin wallets): their rows leave the rail out',
  },
  {
    operation: '*',
    kind: 'response',
    body: fundedOutsidePaymentAccountTypes,
    why: 'PaymentInstructions offers a Payment<Cur>AccountInfo branch for AED, BDT, BWP, CNY, EGP, GHS, GTQ, HTG, JMD, KES, MWK, PKR, RWF, SLV, TZS, UGX, XAF, XOF, ZAR and ZMW, but each branch also takes BasePaymentAccountInfo, whose accountType enum (PaymentAccountType) leaves those types out: no instruction in those currencies can satisfy both; real-time funding in them answers the branch of its currency',
  },
  {
    operation: '*',
    kind: 'response',
    body: (b) => JSON.stringify(b ?? null).includes('"accountType":"CNY_ACCOUNT"'),
    why: 'ExternalAccountType and the create request list CNY_ACCOUNT, but the response ExternalAccountInfoOneOf has no CNY branch: a CNY account (alone or in a list) is answered in the shape of its request',
  },
  {
    operation: 'POST /customers/bulk/csv',
    kind: 'request',
    status: 202,
    why: 'the upload form requires its file part, yet the operation declares no 400: a form without it is taken (202) and its job FAILS naming file, where the description reports what is wrong with an upload',
  },
];
