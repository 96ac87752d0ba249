/**
 * Restart with --state: credentials, keys, fixtures, sessions, balances, cards and undelivered
 * webhooks survive; the file is written atomically with mode 0600; a foreign file is refused.
 */
import { existsSync, readdirSync, readFileSync as readBytes, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../../../src/crypto/keys.js';
import { UsageError } from '../../../../src/errors.js';
import { startEmulator } from '../../../../src/emulator/index.js';
import { StateFile } from '../../../../src/emulator/kernel/state-file.js';
import { eventually, nodeVerifyWebhook, otpLogin, signedHeaders, testEmulator, webhookReceiver } from '../support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const tempState = () => join(tempDir('svc-emu-state-'), 'nested', 'state.json');

describe('restart with --state', () => {
  it('keeps credentials, keys, sessions, balances, cards and undelivered webhooks', async () => {
    const statePath = tempState();
    let status = 500;
    const hooks = await webhookReceiver(() => status);
    const first = await testEmulator({ statePath, webhookRetry: { initialMs: 60_000 } });
    const login = await otpLogin(first);
    await first.call('POST', `/sandbox/internal-accounts/${first.emu.fixtures.accountId}/fund`, {
      body: { amount: 777 },
    });
    await first.call('PATCH', '/config', { body: { webhookEndpoint: hooks.url } });
    await first.call('PATCH', `/cards/${first.emu.fixtures.cardId}`, { body: { state: 'FROZEN' } });
    await hooks.waitFor(1);
    // The emulator has seen the 500; its retry is a minute away on its clock.
    await eventually(() => (first.emu.testing.webhookQueue()[0]?.attempts === 1 ? true : undefined));
    const queuedId = hooks.deliveries[0]!.body.id;
    expect(first.emu.testing.pendingWebhooks()).toBe(1);
    expect(hooks.deliveries).toHaveLength(1);
    await first.close();

    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(statePath, '..'))).toEqual(['state.json']);

    status = 200;
    const second = await testEmulator({ statePath });
    try {
      for (const key of [
        'apiTokenId',
        'apiClientSecret',
        'webhookPublicKey',
        'otpSignerPublicKey',
        'fixtures',
      ] as const) {
        expect(second.emu[key]).toEqual(first.emu[key]);
      }
      expect(second.emu.baseUrl).not.toBe(first.emu.baseUrl);
      // The queued event is delivered after the restart: same id, still verifiable with the same key.
      const redelivered = await eventually(() => hooks.deliveries.find((d, i) => i > 0 && d.body.id === queuedId));
      expect(nodeVerifyWebhook(second.emu.webhookPublicKey, redelivered)).toBe(true);
      await eventually(() => (second.emu.testing.pendingWebhooks() === 0 ? true : undefined));

      const account = await second.call('GET', `/internal-accounts/${second.emu.fixtures.accountId}`);
      expect(account.body.balance.amount).toBe(777);
      expect((await second.call('GET', `/cards/${second.emu.fixtures.cardId}`)).body.state).toBe('FROZEN');

      const sessions = await second.call('GET', `/auth/sessions?accountId=${second.emu.fixtures.accountId}`);
      expect(sessions.body.data.map((s: { id: string }) => s.id)).toContain(login.sessionId);
      // The session key still authorizes: refresh it with a stamp by the key from before the restart.
      const next = generateKeyPair().publicKey;
      const c = await second.call('POST', `/auth/sessions/${login.sessionId}/refresh`, {
        body: { clientPublicKey: next },
      });
      const done = await second.call('POST', `/auth/sessions/${login.sessionId}/refresh`, {
        body: { clientPublicKey: next },
        headers: signedHeaders(c.body, login.privateKey),
      });
      expect(done.status).toBe(201);
    } finally {
      await second.close();
      await hooks.close();
    }
  });

  it('replaces a paid fixture quote and resumes the issuer for PROCESSING cards', async () => {
    const statePath = tempState();
    const first = await testEmulator({ statePath, cardIssuanceDelayMs: 60_000 });
    await first.call('POST', '/sandbox/send', { body: { quoteId: first.emu.fixtures.quoteId, currencyCode: 'USD' } });
    const c = await first.call('POST', '/customers', {
      body: { customerType: 'INDIVIDUAL', fullName: 'Later Holder' },
    });
    const acct = await first.call('GET', `/internal-accounts?customerId=${c.body.id}`);
    const card = await first.call('POST', '/cards', {
      body: { cardholderId: c.body.id, form: 'VIRTUAL', fundingSources: [acct.body.data[0].id] },
    });
    await first.close();

    const second = await testEmulator({ statePath, cardIssuanceDelayMs: 60_000 });
    try {
      expect(second.emu.fixtures.quoteId).not.toBe(first.emu.fixtures.quoteId);
      expect((await second.call('GET', `/quotes/${second.emu.fixtures.quoteId}`)).body.status).toBe('PENDING');
      expect((await second.call('GET', `/cards/${card.body.id}`)).body.state).toBe('PROCESSING');
      second.emu.testing.advanceClock(60_000);
      expect((await second.call('GET', `/cards/${card.body.id}`)).body.state).toBe('ACTIVE');
    } finally {
      await second.close();
    }
  });

  it('gives the fixture customer of a state file written before it had a phone number one', async () => {
    const statePath = tempState();
    const first = await testEmulator({ statePath });
    const { customerId } = first.emu.fixtures;
    await first.close();
    const saved = JSON.parse(readFileSync(statePath));
    delete saved.fixtures.phoneNumber;
    delete saved.customers[customerId].phoneNumber;
    writeFileSync(statePath, JSON.stringify(saved));

    const second = await testEmulator({ statePath });
    try {
      expect(second.emu.fixtures.customerId).toBe(customerId);
      expect(second.emu.fixtures.phoneNumber).toMatch(/^\+1555555\d{4}$/);
      const customer = await second.call('GET', `/customers/${customerId}`);
      expect(customer.body.phoneNumber).toBe(second.emu.fixtures.phoneNumber);
    } finally {
      await second.close();
    }
  });

  it('saves on change, not only on close', async () => {
    const statePath = tempState();
    const t = await testEmulator({ statePath });
    try {
      await t.call('POST', `/sandbox/internal-accounts/${t.emu.fixtures.accountId}/fund`, { body: { amount: 4242 } });
      // Polled, not slept: the write is asynchronous and a loaded machine may take longer than a fixed wait.
      const balance = await eventually(() => {
        if (!existsSync(statePath)) return undefined;
        const saved = JSON.parse(readFileSync(statePath));
        const value = saved.accounts[t.emu.fixtures.accountId].balance;
        return value === 4242 ? value : undefined;
      });
      expect(balance).toBe(4242);
    } finally {
      await t.close();
    }
  });

  it('a save includes what the handler changed right after marking the state changed', async () => {
    const statePath = tempState();
    const file = new StateFile(statePath, () => undefined);
    const state: Record<string, number> = {};
    file.bind(() => JSON.stringify(state));
    state.first = 1;
    file.changed();
    state.second = 2; // same turn, e.g. a quote's transactionId set after the transaction was recorded
    await file.saved();
    expect(JSON.parse(readFileSync(statePath))).toEqual({ first: 1, second: 2 });
    await file.close();
  });

  it('refuses a file that is not an emulator state file, and leaves it alone', async () => {
    const statePath = tempState().replace('nested', '');
    writeFileSync(statePath, '{"hello":"world"}');
    await expect(startEmulator({ port: 0, statePath })).rejects.toSatisfy(
      (e: unknown) => e instanceof UsageError && e.input === '--state',
    );
    expect(readFileSync(statePath)).toBe('{"hello":"world"}');
  });

  it('refuses a state file that is not JSON without quoting it: the file holds the client secret and keys', async () => {
    const statePath = tempState().replace('nested', '');
    const secret = 'emusk_do-not-print-me-0123456789';
    writeFileSync(statePath, `{"version":1,"apiClientSecret": ${secret}}`);
    const error = await startEmulator({ port: 0, statePath }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ input: '--state', message: expect.stringContaining('not valid JSON') });
    // JSON.parse's own message would quote the text around the bad token: the secret's first characters.
    expect(`${(error as UsageError).message} ${(error as UsageError).hint}`).not.toContain(secret.slice(0, 8));
  });
});

const readFileSync = (path: string): string => readBytes(path, 'utf8');
