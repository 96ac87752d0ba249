/**
 * What stands in for the examples' placeholders and variables: the fixtures' ids, resources made
 * for an example that ends or changes them, and inputs made with the library's own crypto.
 */
import { createECDH } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import type { World } from './world.js';
import { randomToken } from '../../helpers/random-data.js';

/** A stand-in value for a placeholder, or a variable a line reads; made on demand. */
export type Value = (w: World) => Promise<string> | string;

/** Keys the keys examples use (a stamp's, an OTP signer's). */
export const STAMP_KEY = generateKeyPair();
export const OTP_SIGNER = generateKeyPair();

export const fixture =
  (name: string): Value =>
  (w) =>
    w.ready.fixtures[name]!;
export const freshUncompressed = () => createECDH('prime256v1').generateKeys('hex', 'uncompressed');

/** The fixture customer's USD external account (routing and account numbers of the sandbox). */
export const externalAccount: Value = (w) =>
  w.once('externalAccount', async () => {
    const a = await w.json([
      'accounts',
      'external',
      'create',
      '--customer-id',
      w.ready.fixtures.customerId!,
      '--currency',
      'USD',
      '--account-type',
      'USD_ACCOUNT',
      '--account-number',
      '987654321',
      '--routing-number',
      '021000021',
      '--beneficiary-type',
      'INDIVIDUAL',
      '--beneficiary-name',
      'Ada Lovelace',
    ]);
    return a.id;
  });

/** Placeholders as the examples print them, and what stands in for each (first match wins). */
export const PLACEHOLDERS: [string, Value][] = [
  ['AuthMethod:<uuid>', fixture('credentialId')],
  ['AuthMethod:…', fixture('credentialId')],
  ['InternalAccount:<uuid>', fixture('accountId')],
  ['InternalAccount:…', fixture('accountId')],
  ['Customer:<uuid>', fixture('customerId')],
  ['Card:<uuid>', fixture('cardId')],
  ['Quote:<uuid>', fixture('quoteId')],
  ['<umaAddress>', fixture('umaAddress')],
  ['Session:<uuid>', async (w) => (await w.json(['session', 'show'])).id],
  ['ExternalAccount:<uuid>', externalAccount],
  ['04<128 hex>', freshUncompressed],
  ['04…', freshUncompressed],
  ['<address>', () => '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'],
  ['<token id>', () => 'tok_from_the_dashboard'],
  // Your app: the test's loopback one.
  ['localhost:3000', (w) => w.app.address],
  ['localhost:3001', (w) => w.app.address],
  ['127.0.0.1:3000', (w) => w.app.address],
];

/** Variables the lines read, as a shell script would have set them. */
export const VARIABLES: Record<string, Value> = {
  OTP: () => '000000',
  CREDENTIAL: fixture('credentialId'),
  ACCOUNT: fixture('accountId'),
  RUNNER_TEMP: (w) => w.root,
};

export const file = (name: string, text: string) => (w: World) => writeFileSync(join(w.cwd, name), text);

/** The subject (and so the nickname) of the OAuth credentials examples remove. */
const REMOVABLE = 'removable-';

/**
 * A sandbox OAuth credential of the default identity (the one `--sandbox-token` logs in as): never
 * one of the removable ones, which examples running beside it delete, and whose subject the
 * default token does not name.
 */
export const oauthCredential: Value = (w) =>
  w.once('oauthCredential', async () => {
    const listed = (await w.json(['credentials', 'list'])).data as { id: string; type: string; nickname: string }[];
    const known = listed.find((c) => c.type === 'OAUTH' && !c.nickname.startsWith(REMOVABLE));
    return known?.id ?? (await w.json(['credentials', 'add', 'oauth', '--sandbox-token'])).id;
  });

/** A credential of its own for an example that removes it (an OAuth one of a new subject). */
export const removableCredential: Value = async (w) =>
  (await w.json(['credentials', 'add', 'oauth', '--sandbox-token', '--subject', `${REMOVABLE}${randomToken()}`])).id;

/** The nonce of a kept client key, as the README's `NONCE=$(svc login oauth … --nonce)` sets it. */
export const nonce: Value = async (w) => {
  const r = await w.svc(['login', 'oauth', '--credential', await oauthCredential(w), '--nonce']);
  return r.stdout.trim();
};

/** A software passkey held here (the `credentials add passkey` examples, run first, make them). */
export const passkeyCredential: Value = async (w) => {
  const listed = (await w.json(['credentials', 'list'])).data as { id: string; softwarePasskeyHeld?: boolean }[];
  return listed.find((c) => c.softwarePasskeyHeld)!.id;
};

export const spareSession: Value = (w) => w.spareSession();

export const newCustomer: Value = async (w) =>
  (await w.json(['customers', 'create', '--platform-id', `ex-${randomToken()}`, '--full-name', 'Grace Hopper'])).id;

/** A customer of an EEA region, whose email and phone can be verified. */
export const eeaCustomer: Value = (w) =>
  w.once('eea', async () => {
    const c = await w.json([
      'customers',
      'create',
      '--platform-id',
      'ex-eea',
      '--region',
      'DE',
      '--full-name',
      'Erika Mustermann',
      '--email',
      'erika@example.com',
      '--phone-number',
      '+4915112345678',
    ]);
    return c.id;
  });

/** A new customer's USD account, which has no credential yet. */
export const newAccount: Value = async (w) => {
  const customer = await w.json([
    'customers',
    'create',
    '--platform-id',
    `ex-${randomToken()}`,
    '--full-name',
    'Ada Byron',
    '--email',
    'ada.byron@example.com',
  ]);
  const accounts = await w.json(['accounts', 'internal', 'list', '--customer-id', customer.id, '--currency', 'USD']);
  return (accounts.data as { id: string }[])[0]!.id;
};

export const newToken: Value = async (w) =>
  (await w.json(['tokens', 'create', '--name', 'ex', '--permissions', 'VIEW'])).id;

/** The fixture card's active delegated key (the `delegated-keys create` example makes it). */
export const delegatedKey: Value = async (w) => {
  const keys = await w.json(['auth', 'delegated-keys', 'list', '--account-id', w.ready.fixtures.accountId!]);
  return (keys.data as { id: string; status: string }[]).find((k) => k.status === 'ACTIVE')!.id;
};

export const newQuote: Value = async (w) =>
  (
    await w.json([
      'quotes',
      'create',
      '--source-account',
      w.ready.fixtures.accountId!,
      '--dest-uma',
      '$success.usd@example.com',
      '--dest-currency',
      'USD',
      '--amount',
      '1000',
      '--lock-side',
      'SENDING',
    ])
  ).id;

export const transaction: Value = (w) =>
  w.once('transaction', async () => {
    const t = await w.json([
      'transfers',
      'out',
      '--source',
      w.ready.fixtures.accountId!,
      '--dest',
      await externalAccount(w),
      '--amount',
      '100',
    ]);
    return t.id;
  });

/** A profile for an example to rename or delete. */
export const profile = (name: string) => async (w: World) => {
  await w.svc(['--profile', name, 'config', 'set', 'base-url', 'http://127.0.0.1:4010']);
};
