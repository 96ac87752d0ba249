/**
 * A quote paid from a new customer's embedded wallet, executed while the active session belongs to
 * another wallet: the error names both wallets (and their customers) and the login for the quote's,
 * not "revoked or expired". auth status and session show name the wallet and customer a session signs for.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir } from '../helpers/spawn-svc.js';

const configDir = tempConfigDir();
const emulator = startSvc(['--json', 'emulator', 'start', '--port', '0'], { configDir });
afterAll(async () => {
  await emulator.stop();
  rmSync(configDir, { recursive: true, force: true });
});

const json = async (args: string[]) => {
  const r = await runSvc(['--json', ...args], { configDir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('the wrong wallet’s session', () => {
  it('quotes execute names the session’s wallet and the quote’s, and how to log in for it', async () => {
    const ready = JSON.parse(await emulator.firstLine) as {
      baseUrl: string;
      apiTokenId: string;
      apiClientSecret: string;
      fixtures: { credentialId: string; accountId: string; customerId: string };
    };
    await json(['otp', 'verify', '--credential', ready.fixtures.credentialId, '--code', '000000']);
    const customer = await json([
      'customers',
      'create',
      '--platform-id',
      'wrong-wallet-e',
      '--email',
      'wrongwallet@example.com',
      '--full-name',
      'Bob Wallet',
    ]);
    const accounts = await json([
      'accounts',
      'internal',
      'list',
      '--customer-id',
      customer.id,
      '--type',
      'EMBEDDED_WALLET',
    ]);
    const wallet = accounts.data[0].id as string;
    await json(['sandbox', 'fund', wallet, '--amount', '5000']);
    const quote = await json([
      'quotes',
      'create',
      '--source-account',
      wallet,
      '--dest-uma',
      '$success.usd@example.com',
      '--dest-currency',
      'USD',
      '--amount',
      '1000',
      '--lock-side',
      'SENDING',
    ]);

    const r = await runSvc(['quotes', 'execute', quote.id], { configDir });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`signs for wallet ${ready.fixtures.accountId} of customer ${ready.fixtures.customerId}`);
    expect(r.stderr).toContain(`this quote is paid from wallet ${wallet} of customer ${customer.id}`);
    expect(r.stderr).toContain(`Log in with a credential of ${wallet}`);
    expect(r.stderr).not.toMatch(/revoked, expired/);
  });
});

describe('which wallet and customer a session signs for', () => {
  it('auth status and session show name both, in text and in --json', async () => {
    const ready = JSON.parse(await emulator.firstLine) as {
      baseUrl: string;
      apiTokenId: string;
      apiClientSecret: string;
      fixtures: { credentialId: string; accountId: string; customerId: string };
    };
    const { accountId, customerId } = ready.fixtures;
    const login = await json(['otp', 'verify', '--credential', ready.fixtures.credentialId, '--code', '000000']);
    const signsFor = `signs for wallet ${accountId} of customer ${customerId}`;

    const status = await runSvc(['auth', 'status'], { configDir });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(signsFor);
    expect((await json(['auth', 'status'])).session).toMatchObject({ id: login.id, accountId, customerId });

    const show = await runSvc(['session', 'show'], { configDir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(new RegExp(`Signs for: +wallet ${accountId} of customer ${customerId}`));
    expect(await json(['session', 'show'])).toMatchObject({ id: login.id, accountId, customerId });

    // The owner comes from the customers' wallet list: the public API has no GET /internal-accounts/{id}.
    const log = await fetch(new URL('/_emulator/requests', ready.baseUrl), {
      headers: {
        authorization: `Basic ${Buffer.from(`${ready.apiTokenId}:${ready.apiClientSecret}`).toString('base64')}`,
      },
    });
    expect(log.status).toBe(200);
    const reads = ((await log.json()) as { data: { method: string; path: string }[] }).data
      .filter((r) => r.method === 'GET')
      .map((r) => r.path.replace(/^\/\d{4}-\d{2}-\d{2}/, '').split('?')[0]);
    expect(reads).toContain('/customers/internal-accounts');
    expect(reads.filter((path) => path.startsWith('/internal-accounts'))).toEqual([]);
  });
});
