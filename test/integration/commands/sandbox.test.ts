/**
 * The sandbox verbs' run() against a real emulator: terminal summaries, --json bodies, the UMA magic
 * senders, and server errors rendered with their code and field errors.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDeps, type FakeDepsOptions } from '../../helpers/fake-deps.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { ApiError } from '../../../src/errors.js';
import { renderError } from '../../../commands/render-error.js';
import { run as fund } from '../../../commands/sandbox/fund.js';
import { run as send } from '../../../commands/sandbox/send.js';
import { run as umaReceive } from '../../../commands/sandbox/uma-receive.js';
import { emulatorEnv } from './helpers.js';

let emu: RunningEmulator;
beforeAll(async () => (emu = await startEmulator({ port: 0 })));
afterAll(() => emu.close());

const deps = (o: FakeDepsOptions = {}) => fakeDeps({ ...o, env: { ...emulatorEnv(emu), ...o.env } });
const MISSING_ACCOUNT = 'InternalAccount:00000000-0000-4000-8000-000000000000';

/** What the user would see for a thrown error (the renderer bin/svc uses). */
function rendered(error: unknown): string {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  renderError(error, { stderr: stream, json: false, verbose: false, color: false });
  return text;
}

async function failure(call: Promise<void>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('sandbox fund', () => {
  it('summarises the new balance on a terminal', async () => {
    const d = deps();
    await fund({ account: emu.fixtures.accountId, amount: '100000' }, d);
    expect(d.stdout()).toMatch(new RegExp(`^Funded ${emu.fixtures.accountId} balance [\\d,]+\\.\\d{2} USD\\n$`));
    expect(d.stderr()).toContain('Added 1,000.00 USD (100000 in the smallest unit).');
  });

  it('--json prints the InternalAccount body and adds exactly the amount', async () => {
    const first = deps({ globals: { json: true } });
    await fund({ account: emu.fixtures.accountId, amount: '1' }, first);
    const before = JSON.parse(first.stdout()).balance.amount as number;
    const second = deps({ globals: { json: true } });
    await fund({ account: emu.fixtures.accountId, amount: '100000000000' }, second);
    const body = JSON.parse(second.stdout());
    expect(body).toMatchObject({
      id: emu.fixtures.accountId,
      balance: { amount: before + 100_000_000_000, currency: { code: 'USD', decimals: 2 } },
    });
    expect(second.stderr()).toBe('');
  });

  it('an unknown account is the service 404, rendered with its code', async () => {
    const error = await failure(fund({ account: MISSING_ACCOUNT, amount: '5' }, deps()));
    expect(error.status).toBe(404);
    expect(rendered(error)).toMatch(/Error: \w+ \(HTTP 404\)/);
  });
});

describe('sandbox send', () => {
  it('a wrong currency is the service 400 INVALID_CURRENCY', async () => {
    const error = await failure(send({ quote: emu.fixtures.quoteId, currency: 'EUR' }, deps()));
    expect(error).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    expect(rendered(error)).toContain('INVALID_CURRENCY (HTTP 400)');
  });

  it('an amount above the service maximum comes back as INVALID_INPUT and every field error is rendered', async () => {
    const error = await failure(send({ quote: emu.fixtures.quoteId, currency: 'USD', amount: '100000000001' }, deps()));
    expect(error).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(error.fieldErrors.map((f) => f.field)).toEqual(['currencyAmount']);
    expect(rendered(error)).toMatch(/INVALID_INPUT \(HTTP 400\)[\s\S]*- currencyAmount: /);
  });

  it('pays the fixture quote once and summarises the transaction', async () => {
    const d = deps();
    await send({ quote: emu.fixtures.quoteId, currency: 'usd' }, d);
    expect(d.stdout()).toMatch(
      new RegExp(`^Paid ${emu.fixtures.quoteId} in USD: Transaction:[0-9a-f-]{36}, status COMPLETED, [\\d,.]+ USD\\n$`),
    );
    // The quote is settled now: paying again is refused by the service, not by us.
    const again = await failure(send({ quote: emu.fixtures.quoteId, currency: 'USD' }, deps()));
    expect(again.fieldErrors[0]?.field).toBe('quoteId');
  });
});

describe('sandbox uma-receive and the magic senders', () => {
  const input = (sender: string) => ({ sender, receiver: emu.fixtures.umaAddress, currency: 'USD', amount: '2500' });

  it.each([
    ['$success.usd@sandbox.example.com', 'COMPLETED'],
    ['$pending.long.usd@sandbox.example.com', 'PENDING'],
    ['$fail.compliance.usd@sandbox.example.com', 'FAILED'],
  ])('%s → %s (--json body)', async (sender, status) => {
    const d = deps({ globals: { json: true } });
    await umaReceive(input(sender), d);
    const tx = JSON.parse(d.stdout());
    expect(tx).toMatchObject({
      type: 'INCOMING',
      status,
      senderUmaAddress: sender,
      receiverUmaAddress: emu.fixtures.umaAddress,
    });
    expect(tx.receivedAmount).toMatchObject({ amount: 2500, currency: { code: 'USD' } });
  });

  it('explains the magic address and the failure reason on a terminal', async () => {
    const d = deps();
    await umaReceive(input('$fail.compliance.usd@sandbox.example.com'), d);
    expect(d.stdout()).toMatch(/status FAILED, reason COMPLIANCE_REJECTED, 25\.00 USD/);
    expect(d.stderr()).toContain('a payment in USD fails a compliance check');
  });

  it('an ordinary sender is refused by the sandbox with SENDER_NOT_ACCEPTED', async () => {
    const error = await failure(umaReceive(input('$alice@example.com'), deps()));
    expect(error).toMatchObject({ status: 400, code: 'SENDER_NOT_ACCEPTED' });
  });

  it('an unknown receiver is 404 UMA_NOT_FOUND', async () => {
    const error = await failure(
      umaReceive({ ...input('$success.usd@sandbox.example.com'), receiver: '$nobody@example.com' }, deps()),
    );
    expect(error).toMatchObject({ status: 404, code: 'UMA_NOT_FOUND' });
  });
});

describe('a 401 on the API token', () => {
  const wrongSecret = () => deps({ env: { SERVICE_API_CLIENT_SECRET: 'not-the-secret' } });
  it.each([
    ['fund', (d: ReturnType<typeof deps>) => fund({ account: emu.fixtures.accountId, amount: '5' }, d)],
    ['send', (d: ReturnType<typeof deps>) => send({ quote: emu.fixtures.quoteId, currency: 'USD' }, d)],
    [
      'uma-receive',
      (d: ReturnType<typeof deps>) =>
        umaReceive(
          {
            sender: '$success.usd@sandbox.example.com',
            receiver: emu.fixtures.umaAddress,
            currency: 'USD',
            amount: '5',
          },
          d,
        ),
    ],
  ])('%s: exit 4 with a hint about the credentials, not a login', async (_verb, call) => {
    const error = await failure(call(wrongSecret()));
    expect(error.status).toBe(401);
    expect(error.hint).toMatch(/Check the API credentials: SERVICE_API_TOKEN_ID and SERVICE_API_CLIENT_SECRET/);
    expect(rendered(error)).not.toMatch(/otp verify/);
  });
});
