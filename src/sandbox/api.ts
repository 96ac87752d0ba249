/**
 * The sandbox endpoints (spec "Sandbox endpoints and their request shapes"; the fund limit below is
 * from the API description). Callers validate first (src/validate.ts), so these only shape the
 * request: the ids go into the path percent-encoded and amounts stay integers in the smallest
 * currency unit.
 */
import type { ApiClient, ApiResponse } from '../http/client.js';
import type { Money } from './format-money.js';

/** Largest amount `POST /sandbox/internal-accounts/{id}/fund` accepts. */
export const MAX_FUND_AMOUNT = 100_000_000_000;

/** An id as a path segment: escaped like any segment, but ':' stays readable (it is legal in a path). */
export function pathId(id: string): string {
  return encodeURIComponent(id).replace(/%3A/gi, ':');
}

export interface InternalAccount {
  id: string;
  type?: string;
  status?: string;
  balance?: Money;
  [k: string]: unknown;
}
export interface SandboxTransaction {
  id?: string;
  status?: string;
  [k: string]: unknown;
}

export function fundInternalAccount(
  client: ApiClient,
  accountId: string,
  amount: number,
  signal?: AbortSignal,
): Promise<ApiResponse<InternalAccount>> {
  return client.request<InternalAccount>({
    method: 'POST',
    path: `/sandbox/internal-accounts/${pathId(accountId)}/fund`,
    body: { amount },
    signal,
  });
}

export interface SendInput {
  quoteId: string;
  currencyCode: string;
  currencyAmount?: number;
}

/** Pays a real-time-funding quote's payment instructions. */
export function sandboxSend(
  client: ApiClient,
  input: SendInput,
  signal?: AbortSignal,
): Promise<ApiResponse<SandboxTransaction>> {
  const body: Record<string, unknown> = { quoteId: input.quoteId, currencyCode: input.currencyCode };
  if (input.currencyAmount !== undefined) body.currencyAmount = input.currencyAmount;
  return client.request<SandboxTransaction>({ method: 'POST', path: '/sandbox/send', body, signal });
}

export interface UmaReceiveInput {
  senderUmaAddress: string;
  receiverUmaAddress: string;
  receivingCurrencyCode: string;
  receivingCurrencyAmount: number;
}

/** Simulates an incoming UMA payment to a platform user. */
export function sandboxUmaReceive(
  client: ApiClient,
  input: UmaReceiveInput,
  signal?: AbortSignal,
): Promise<ApiResponse<SandboxTransaction>> {
  return client.request<SandboxTransaction>({
    method: 'POST',
    path: '/sandbox/uma/receive',
    body: { ...input },
    signal,
  });
}
