/**
 * The official CLI's own command lines (its tests and README, `grid` swapped for `svc`,
 * ids filled from the emulator, no --wallet-signature legs) run as spawned `svc` against the
 * emulator, in order, through a recording proxy. A positive line exits 0; a line the service
 * refuses exits 1 after reaching it; a line svc refuses exits 2 with nothing sent. A signed line
 * is answered by svc's own signed retry with the session the test logged in.
 */
import { createECDH } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../integration/auth/support.js';
import { login } from '../integration/auth/login.js';
import { bashCompleter } from '../helpers/bash-completion.js';

interface Line {
  line: string;
  /**
   * 0: done; 1: refused by the service (it saw the request); 4: the service refused the
   * signature (401, svc's exit code for authentication); 2: refused by svc, nothing sent.
   */
  exit: 0 | 1 | 2 | 4;
  /** Keeps a field of the answer for later lines: [name, dotted path]. */
  save?: [string, string];
  /** The service asks for a wallet signature here: svc's signed retry must be seen. */
  signed?: true;
  /** Signed retries svc must send (an operation with several signed legs), default 1. */
  legs?: number;
}

const NONE = '00000000-0000-4000-8000-000000000000';

const LINES: Line[] = [
  // customers
  { line: 'customers list --region US --currency USD', exit: 0 },
  { line: 'customers list --type INDIVIDUAL --limit 5', exit: 0 },
  { line: 'customers get {customer}', exit: 0 },
  {
    line: 'customers create --platform-id p1 --type BUSINESS --legal-name "Acme LLC" --business-country US --tax-id 12-3456789 --incorporated-on 2020-01-01',
    exit: 0,
    save: ['business', 'id'],
  },
  {
    line: 'customers create --platform-id p2 --type INDIVIDUAL --full-name "Ada Lovelace" --email ada@example.com --phone-number +15551234567',
    exit: 0,
    save: ['ada2', 'id'],
  },
  {
    line: 'customers create --platform-id your-id --type INDIVIDUAL --full-name "John Doe" --birth-date 1990-01-15 --address-line1 "123 Main St" --address-city Seattle --address-state WA --address-postal 98101 --address-country US',
    exit: 0,
  },
  { line: 'customers create --platform-id p1 --type INDIVIDUAL --full-name "Ada Again"', exit: 1 },
  { line: 'customers create --platform-id p3 --type BUSINESS --legal-name "Acme LLC"', exit: 2 },
  {
    line: 'customers create --platform-id p4 --type INDIVIDUAL --full-name "Ada Lovelace" --address-line1 "123 Main St"',
    exit: 2,
  },
  { line: 'customers create --platform-id p5 --type PERSON', exit: 2 },
  { line: 'customers update {customer} --type INDIVIDUAL --full-name "Ada Lovelace"', exit: 0 },
  { line: 'customers update {business} --type BUSINESS --legal-name "Acme LLC"', exit: 0 },
  { line: 'customers update {customer} --type INDIVIDUAL --email ada@example.com', exit: 0, signed: true },
  {
    line: 'customers update {customer} --type INDIVIDUAL --email ada@example.com --phone-number +15551234567',
    exit: 2,
  },
  { line: 'customers update {customer} --type INDIVIDUAL --email ada@example.com --wallet-signature stamp', exit: 2 },
  {
    line: 'customers update {customer} --type INDIVIDUAL --email other@example.com --wallet-signature stamp --request-id req-1',
    exit: 4,
  },
  { line: 'customers kyc-link {customer} --redirect-uri https://example.com/kyc-complete', exit: 0 },
  { line: 'customers kyc-link --customer-id {customer} --redirect-url https://example.com/kyc-complete', exit: 0 },
  // contact verification: a customer of an EEA region verifies both channels with the sandbox code
  {
    line: 'customers create --platform-id eea-1 --region DE --full-name "Erika Mustermann" --email erika@example.com --phone-number +4915112345678',
    exit: 0,
    save: ['eea', 'id'],
  },
  { line: 'customers verify-email {eea}', exit: 0 },
  { line: 'customers confirm-email {eea} --code 000000', exit: 1 },
  { line: 'customers confirm-email {eea} --code 123456', exit: 0 },
  { line: 'customers confirm-email {eea} --code 123456', exit: 1 },
  { line: 'customers verify-phone {eea}', exit: 0 },
  { line: 'customers confirm-phone {eea} --code 123456', exit: 0 },
  { line: 'customers confirm-phone {eea}', exit: 2 },
  { line: 'customers verify-email {customer}', exit: 1 },
  { line: `customers get Customer:${NONE}`, exit: 1 },
  { line: 'customers get cust_1', exit: 2 },
  { line: 'customers delete {ada2} --yes', exit: 0 },
  { line: 'customers delete {ada2} --yes', exit: 1 },
  { line: 'customers delete {business}', exit: 2 },

  // accounts
  { line: 'accounts internal list --type EMBEDDED_WALLET', exit: 0 },
  { line: 'accounts internal list --platform --currency USD --type INTERNAL_FIAT', exit: 0 },
  { line: 'accounts internal list --customer-id {customer} --currency USD', exit: 0 },
  { line: 'accounts internal list --currency usd', exit: 2 },
  { line: 'accounts external list --customer-id {customer}', exit: 0 },
  { line: 'accounts external list --platform', exit: 0 },
  {
    line: 'accounts external create --customer-id {customer} --currency USD --account-type USD_ACCOUNT --account-number 123456789 --routing-number 021000021 --beneficiary-type INDIVIDUAL --beneficiary-name "John Doe"',
    exit: 0,
    save: ['external', 'id'],
  },
  {
    line: 'accounts external create --customer-id {customer} --currency USD --account-type USD_ACCOUNT --account-number 1234567890 --routing-number 021000021 --beneficiary-type BUSINESS --beneficiary-name "Acme LLC" --beneficiary-registration-number 5523041 --beneficiary-tax-id 47-1234567',
    exit: 0,
  },
  {
    line: 'accounts external create --customer-id {customer} --currency MXN --account-type MXN_ACCOUNT --clabe 012345678901234567 --beneficiary-type INDIVIDUAL --beneficiary-name "Carlos Garcia" --beneficiary-birth-date 1988-03-20 --beneficiary-nationality MX',
    exit: 0,
    save: ['mxn', 'id'],
  },
  {
    // The description's SGD account needs a SWIFT code: svc says so before sending an incomplete account.
    line: 'accounts external create --customer-id {customer} --currency SGD --account-type SGD_ACCOUNT --account-number 1234567890 --beneficiary-type INDIVIDUAL --beneficiary-name "Ada Lovelace"',
    exit: 2,
  },
  {
    line: 'accounts external create --customer-id {customer} --currency USD --account-type USD_ACCOUNT --account-number 1234567890 --routing-number 021000021',
    exit: 2,
  },
  {
    line: 'accounts external create --customer-id {customer} --currency USD --account-type USD_ACCOUNT --account-number 1234567890 --routing-number 021000021 --beneficiary-type INDIVIDUAL',
    exit: 2,
  },
  {
    line: 'accounts external create --customer-id {customer} --currency USD --account-type USD_ACCOUNT --account-number 1234567890 --routing-number 021000021 --beneficiary-type INDIVIDUAL --beneficiary-name "Ada Lovelace" --beneficiary-address-line1 "123 Main St"',
    exit: 2,
  },

  // receiver look-ups
  { line: "receiver lookup-uma '$success.usd@example.com' --customer-id {customer}", exit: 0 },
  { line: 'receiver lookup-uma {umaAddress}', exit: 0 },
  { line: "receiver lookup-uma '$nobody@nowhere.example'", exit: 1 },
  { line: 'receiver lookup-account {external} --sender-uma $sender@uma.example.com --customer-id {customer}', exit: 0 },
  { line: `receiver lookup-account ExternalAccount:${NONE}`, exit: 1 },

  // internal accounts (signed)
  { line: 'internal-accounts update {account} --private-enabled true', exit: 0, signed: true },
  { line: 'internal-accounts update {account} --private-enabled yes', exit: 2 },
  { line: 'internal-accounts export {account} --client-public-key {publicKey}', exit: 0, signed: true },

  // sandbox, quotes, transfers, transactions
  { line: 'sandbox fund {account} --amount 100000', exit: 0 },
  { line: 'sandbox fund {account} --amount 10foo', exit: 2 },
  { line: 'quotes get {quote}', exit: 0 },
  {
    line: "quotes create --source-account {account} --dest-uma '$success.usd@example.com' --dest-currency USD --amount 1000 --lock-side SENDING",
    exit: 0,
    save: ['umaQuote', 'id'],
  },
  { line: 'quotes execute {umaQuote}', exit: 0, save: ['transaction', 'transactionId'] },
  { line: 'quotes execute {umaQuote}', exit: 1 },
  {
    line: 'quotes create --source-customer {customer} --source-currency USD --dest-account {mxn} --dest-currency MXN --amount 100000 --lock-side RECEIVING',
    exit: 0,
    save: ['jitQuote', 'id'],
  },
  { line: 'sandbox send --quote-id {jitQuote} --currency USD', exit: 0 },
  { line: `sandbox send --quote-id Quote:${NONE} --currency USD`, exit: 1 },
  {
    line: 'quotes create --amount 1000 --lock-side SENDING --source-customer {customer} --dest-account {external}',
    exit: 2,
  },
  {
    line: 'quotes create --amount 1000 --lock-side BOTH --source-account {account} --dest-account {external}',
    exit: 2,
  },
  { line: `quotes get Quote:${NONE}`, exit: 1 },
  { line: 'transfers out --source {account} --dest {external} --amount 100', exit: 0 },
  {
    line: 'transfers out --source {account} --dest {external} --remittance-information Payroll --payment-rail ACH --amount 100',
    exit: 0,
  },
  { line: 'transfers out --source {account} --dest {external} --amount 1.5', exit: 2 },
  { line: `transfers in --source ExternalAccount:${NONE} --dest {account} --amount 10000`, exit: 1 },
  { line: 'transactions list --account-identifier {account}', exit: 0 },
  { line: 'transactions list --type OUTGOING --limit 10', exit: 0 },
  { line: 'transactions list --paginate', exit: 0 },
  { line: 'transactions list --type SIDEWAYS', exit: 2 },
  { line: 'transactions get {transaction}', exit: 0 },
  { line: `transactions get Transaction:${NONE}`, exit: 1 },
  { line: `transactions get CardTransaction:${NONE}`, exit: 1 },
  { line: `transactions get Quote:${NONE}`, exit: 2 },
  { line: 'transactions reject {transaction} --reason "Invalid sender"', exit: 1 },
  { line: 'transactions approve {transaction} --receiver-customer-info not-json', exit: 2 },

  // sandbox receive (the official CLI's) next to svc's uma-receive
  {
    line: "sandbox receive --uma-address {umaAddress} --sender-uma '$success.usd@sandbox.example.com' --amount 1000 --currency USD",
    exit: 0,
  },
  {
    line: "sandbox receive --customer-id {customer} --sender-uma '$success.usd@sandbox.example.com' --amount 500 --currency USD",
    exit: 0,
  },
  { line: "sandbox receive --sender-uma '$success.usd@sandbox.example.com' --amount 500 --currency USD", exit: 2 },

  // cards
  { line: 'cards list --cardholder-id {customer} --state ACTIVE', exit: 0 },
  { line: 'cards get {card}', exit: 0 },
  {
    line: 'cards create --cardholder-id {customer} --funding-sources {account} --max-spend-per-transaction 5000',
    exit: 0,
    save: ['card2', 'id'],
  },
  {
    line: 'cards create --cardholder-id {customer} --funding-sources {account} --max-spend-per-transaction 0',
    exit: 2,
  },
  { line: 'cards update {card} --state FROZEN', exit: 0 },
  { line: 'cards update {card} --state ACTIVE', exit: 0 },
  { line: 'cards update {card} --funding-sources {account}', exit: 0 },
  { line: 'cards update {card} --state PENDING_KYC', exit: 2 },
  { line: 'cards update {card}', exit: 2 },
  { line: 'cards update {card} --funding-sources ,', exit: 2 },
  { line: 'cards update {card} --max-spend-per-transaction 5000 --clear-max-spend-per-transaction', exit: 2 },
  { line: 'cards update {card} --state CLOSED --funding-sources {account}', exit: 2 },
  { line: 'cards reveal {card}', exit: 0 },
  { line: 'cards update {card2} --state CLOSED', exit: 0 },
  { line: 'cards update {card2} --state ACTIVE', exit: 1 },

  // exchange rates, platform configuration
  {
    line: 'exchange-rates --source-currency USD --destination-currency EUR --destination-currency MXN --sending-amount 10000',
    exit: 0,
  },
  { line: 'exchange-rates --source-currency USD --destination-currency EUR --sending-amount 10.5', exit: 2 },
  { line: 'discoveries --country PH --currency PHP', exit: 0 },
  { line: 'uma-providers --country-code US --has-blocked-providers', exit: 0 },
  { line: 'uma-providers --country-code US --currency-code USD --limit 1 --paginate', exit: 0 },
  { line: 'platform-config get', exit: 0 },
  { line: 'platform-config update --webhook-endpoint https://example.com/webhooks', exit: 0 },
  { line: "platform-config update --supported-currencies '[{currencyCode:USD}]'", exit: 2 },

  // auth (signed where the service asks)
  { line: 'auth credentials list --account-id {account}', exit: 0 },
  { line: 'auth credentials challenge {credential}', exit: 0 },
  { line: 'auth credentials create --type EMAIL_OTP --account-id {account}', exit: 1 },
  { line: 'auth credentials create --type PASSWORD --account-id {account}', exit: 2 },
  { line: 'auth credentials revoke {credential} --wallet-signature stamp', exit: 2 },
  {
    line: 'auth delegated-keys create --card-id {card} --internal-account-id {account} --nickname "Card key"',
    exit: 0,
    signed: true,
    legs: 2,
    save: ['delegatedKey', 'id'],
  },
  { line: 'auth delegated-keys list --account-id {account}', exit: 0 },
  { line: 'auth delegated-keys get {delegatedKey}', exit: 0 },
  { line: 'auth delegated-keys list --funding-source-id {account}', exit: 2 },
  { line: 'auth delegated-keys revoke {delegatedKey} --yes', exit: 0 },
  { line: 'auth delegated-keys revoke {delegatedKey} --yes', exit: 1 },
  { line: `auth delegated-keys get DelegatedKey:${NONE}`, exit: 1 },
  { line: 'auth sessions list --account-id {account}', exit: 0, save: ['session', 'data.0.id'] },
  { line: `auth sessions revoke Session:${NONE} --yes`, exit: 1 },
  { line: 'auth sessions refresh {session} --client-public-key {publicKey}', exit: 0, signed: true },
  {
    line: 'crypto estimate-fee --internal-account-id {account} --currency USDC --crypto-network SOLANA --amount 10foo --destination-address sol-addr',
    exit: 2,
  },
  { line: 'auth delegated-keys list', exit: 2 },
  { line: 'tokens create --name "CI token" --permissions VIEW,ADMIN', exit: 2 },
  { line: 'uma-providers --country-code US --limit 0', exit: 2 },
  { line: 'receiver lookup-account {customer} --customer-id {customer}', exit: 2 },

  // API tokens, the crypto withdrawal fee
  { line: 'tokens create --name "CI token" --permissions VIEW,TRANSACT', exit: 0, save: ['token', 'id'] },
  { line: 'tokens list --name "CI token"', exit: 0 },
  { line: 'tokens get {token}', exit: 0 },
  { line: 'tokens revoke {token} --yes', exit: 0 },
  { line: 'tokens get {token}', exit: 1 },
  // The fixture account is not an embedded wallet: the service refuses the estimate (a wallet's is in directories.test.ts).
  {
    line: 'crypto estimate-fee --internal-account-id {account} --currency USDC --crypto-network SOLANA --amount 5000 --destination-address sol-addr',
    exit: 1,
  },
];

let t: AuthEnv;
const vars: Record<string, string> = {};
beforeAll(async () => {
  t = await authEnv();
  await login(t);
  const f = t.emu.fixtures;
  Object.assign(vars, {
    customer: f.customerId,
    account: f.accountId,
    card: f.cardId,
    quote: f.quoteId,
    credential: f.credentialId,
    umaAddress: f.umaAddress,
    publicKey: createECDH('prime256v1').generateKeys('hex', 'uncompressed'),
  });
});
afterAll(() => t.close());

/** The words of a line as a shell would split them (single and double quotes). */
function words(line: string): string[] {
  const filled = line.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (vars[name] === undefined) throw new Error(`no value for {${name}} yet: an earlier line should have saved it`);
    return vars[name];
  });
  return [...filled.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

const pick = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);

describe("the official CLI's command lines, run with svc", () => {
  it.each(LINES.map((l) => [l.line, l] as const))('svc %s', async (_name, l) => {
    const seen = t.proxy.seen.length;
    const signedBefore = t.proxy.seen.filter((s) => s.signed).length;
    const r = await runSvc(words(l.line), { env: t.env, configDir: t.configDir });
    const sent = t.proxy.seen.length - seen;
    expect({ exit: r.code, stderr: r.stderr }).toMatchObject({ exit: l.exit });
    if (l.exit === 2) {
      expect(sent).toBe(0);
      expect(r.stderr).toMatch(/--[\w-]+|<\w+>/);
    } else expect(sent).toBeGreaterThan(0);
    if (l.exit === 1 || l.exit === 4) expect(r.stderr).toMatch(/HTTP [45]\d\d/);
    if (l.signed) expect(t.proxy.seen.filter((s) => s.signed).length - signedBefore).toBe(l.legs ?? 1);
    if (l.save) {
      const value = pick(JSON.parse(r.stdout), l.save[1]);
      expect(typeof value).toBe('string');
      vars[l.save[0]] = value as string;
    }
  });
});

describe('beyond the official CLI', () => {
  const svc = (args: string[]) => runSvc(args, { env: t.env, configDir: t.configDir });

  it('--dry-run prints the request and its curl, with the signing steps, sends nothing and shows no secret', async () => {
    const seen = t.proxy.seen.length;
    const r = await svc(['cards', 'update', vars.card!, '--state', 'FROZEN', '--dry-run']);
    expect(r.code).toBe(0);
    expect(t.proxy.seen.length).toBe(seen);
    expect(r.stdout).toContain(`PATCH ${t.env.SERVICE_BASE_URL}/cards/${encodeURIComponent(vars.card!)}`);
    expect(r.stdout).toContain('"state": "FROZEN"');
    expect(r.stdout).toContain('-u "$SERVICE_API_TOKEN_ID:$SERVICE_API_CLIENT_SECRET"');
    expect(r.stdout).toContain(`--data-raw '{"state":"FROZEN"}'`);
    expect(r.stdout).toMatch(/Service-Wallet-Signature: \$STAMP.*Request-Id: \$REQUEST_ID/);
    expect(r.stdout + r.stderr).not.toContain(t.env.SERVICE_API_CLIENT_SECRET!);

    const json = await svc(['--json', 'customers', 'list', '--type', 'BUSINESS', '--dry-run']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      request: { method: 'GET', url: `${t.env.SERVICE_BASE_URL}/customers?customerType=BUSINESS` },
      curl: expect.stringContaining("curl -sS -X GET '"),
    });
    expect(JSON.parse(json.stdout).signing).toBeUndefined();
    // A bad flag is refused before the dry run, as before a real one.
    expect((await svc(['customers', 'list', '--type', 'PERSON', '--dry-run'])).code).toBe(2);
  });

  it('a signed command with no session held here says to log in, not to pass a --session it does not have', async () => {
    const r = await runSvc(['internal-accounts', 'update', vars.account!, '--private-enabled', 'false'], {
      env: { ...t.env, SERVICE_CLI_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stderr).toContain('no session is active');
    expect(r.stderr).toMatch(/Hint: Log in first: svc /);
    expect(r.stderr).not.toContain('--session');
  });

  it('--paginate merges every page; --jq filters it; tx is the official alias of transactions', async () => {
    const r = await svc(['--jq', '.[].id', 'tx', 'list', '--limit', '1', '--paginate']);
    expect(r.code).toBe(0);
    const ids = r.stdout.trim().split('\n');
    expect(ids.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id.startsWith('Transaction:'))).toBe(true);
    expect((await svc(['transactions', 'list', '--paginate', '--cursor', 'x'])).code).toBe(2);
  });

  it("completion knows the resource commands: groups, their verbs and each verb's flags", async () => {
    const script = join(t.configDir, 'svc.bash');
    writeFileSync(script, (await svc(['completion', 'bash'])).stdout);
    const complete = bashCompleter(script);
    expect(complete(['svc', 'auth', 'cr'])).toBe('credentials');
    expect(complete(['svc', 'auth', 'credentials', 're']).split(' ').sort()).toEqual(['revoke']);
    expect(complete(['svc', 'customers', 'create', '--full'])).toBe('--full-name');
    expect(complete(['svc', 'exchange-rates', '--sending'])).toBe('--sending-amount');
  });

  it('sandbox send takes --quote-id and --quote, and refuses two different quotes', async () => {
    const r = await svc([
      'sandbox',
      'send',
      '--quote',
      vars.quote!,
      '--quote-id',
      `Quote:${NONE}`,
      '--currency',
      'USD',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--quote-id');
  });
});
