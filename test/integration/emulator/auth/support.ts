import { expect } from 'vitest';
import { signedHeaders, type Answer, type TestEmulator } from '../support.js';
import { randomEmail } from '../../../helpers/random-data.js';

export interface Wallet {
  customerId: string;
  accountId: string;
}

/** A new individual customer (email on file) and its USD embedded-wallet account. */
export async function newWallet(t: TestEmulator, name = 'Grace Hopper'): Promise<Wallet> {
  const email = randomEmail();
  const customer = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: name, email } });
  expect(customer.status).toBe(201);
  // The description lists accounts at /customers/internal-accounts; older emulators at /internal-accounts.
  let list = await t.call('GET', `/customers/internal-accounts?customerId=${customer.body.id}`);
  if (list.status === 404) list = await t.call('GET', `/internal-accounts?customerId=${customer.body.id}`);
  expect(list.status).toBe(200);
  return { customerId: customer.body.id, accountId: list.body.data[0].id };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** header.claims.signature, the signature a dummy (the sandbox does not check it). */
export function jwt(claims: Record<string, unknown>): string {
  return `${b64({ alg: 'RS256', typ: 'JWT', kid: 'sandbox' })}.${b64(claims)}.ZHVtbXk`;
}

/** Claims that pass registration at emulator time nowMs, with overrides (undefined removes a claim). */
export function claims(nowMs: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    iss: 'https://accounts.google.com',
    aud: 'svc-sandbox-client',
    sub: 'user-1234',
    email: 'grace@example.test',
    iat: Math.floor(nowMs / 1000),
    exp: Math.floor(nowMs / 1000) + 600,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
}

/** Step 1 must be a 202 challenge carrying `type`; the retry is stamped by privateKey over the same bytes. */
export async function signedCall(
  t: TestEmulator,
  method: string,
  path: string,
  body: object | undefined,
  privateKey: string,
): Promise<{ first: Answer; retry: Answer }> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const first = await t.call(method, path, raw === undefined ? {} : { body: raw });
  expect(first.status, first.text).toBe(202);
  expect(first.body).toMatchObject({
    type: expect.any(String),
    payloadToSign: expect.any(String),
    requestId: expect.stringMatching(/^Request:/),
  });
  const retry = await t.call(method, path, {
    ...(raw === undefined ? {} : { body: raw }),
    headers: signedHeaders(first.body, privateKey),
  });
  return { first, retry };
}
