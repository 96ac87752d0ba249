/**
 * Every sandbox verb refuses bad input with a UsageError naming the flag, before a request: the
 * env points at a server that counts requests, and the count must stay 0.
 */
import { shownMessage } from '../../../commands/render-error.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { UsageError } from '../../../src/errors.js';
import { run as fund } from '../../../commands/sandbox/fund.js';
import { run as send } from '../../../commands/sandbox/send.js';
import { run as umaReceive } from '../../../commands/sandbox/uma-receive.js';
import { countingEnv, countingServer, type CountingServer } from './helpers.js';

const ACCOUNT = 'InternalAccount:3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01';
const QUOTE = 'Quote:3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01';
const UMA = {
  sender: '$success.usd@sandbox.example.com',
  receiver: '$bob@example.com',
  currency: 'USD',
  amount: '100',
};

let server: CountingServer;
beforeAll(async () => (server = await countingServer()));
afterAll(() => server.close());

async function expectUsage(call: (deps: ReturnType<typeof fakeDeps>) => Promise<void>, field: string): Promise<void> {
  const deps = fakeDeps({ env: countingEnv(server) });
  const error = await call(deps).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).input).toBe(field);
  expect(shownMessage(error as UsageError)).toContain(field);
  expect(server.count()).toBe(0);
  expect(deps.stdout()).toBe('');
}

describe('sandbox fund input checks', () => {
  it.each([
    'InternalAccount:nope',
    'Quote:3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01',
    '',
    '3f0c2b1e-8f7a-4c1d-9b2e-5a6d7c8e9f01',
  ])('rejects account %j', async (account) => {
    await expectUsage((d) => fund({ account, amount: '100' }, d), 'account');
  });
  it.each([undefined, '0', '-1', '1.5', '1e3', 'ten', '100000000001', '99999999999999999999'])(
    'rejects --amount %j',
    async (amount) => {
      await expectUsage((d) => fund({ account: ACCOUNT, amount }, d), '--amount');
    },
  );
});

describe('sandbox send input checks', () => {
  it('rejects a bad quote id', () => expectUsage((d) => send({ quote: 'Quote:123', currency: 'USD' }, d), '--quote'));
  it('rejects a missing quote', () => expectUsage((d) => send({ currency: 'USD' }, d), '--quote'));
  it.each([undefined, 'US', 'USDT', 'U$D'])('rejects --currency %j', (currency) =>
    expectUsage((d) => send({ quote: QUOTE, currency }, d), '--currency'),
  );
  it.each(['0', '-1', '1.5', '9007199254740992'])('rejects --amount %j', (amount) =>
    expectUsage((d) => send({ quote: QUOTE, currency: 'USD', amount }, d), '--amount'),
  );
});

describe('sandbox uma-receive input checks', () => {
  it.each(['alice@example.com', '$alice', '$alice@', '$al ice@example.com', '$alice@example'])(
    'rejects --sender %j',
    (sender) => expectUsage((d) => umaReceive({ ...UMA, sender }, d), '--sender'),
  );
  it('rejects a bad --receiver', () => expectUsage((d) => umaReceive({ ...UMA, receiver: 'bob' }, d), '--receiver'));
  it('rejects a missing --receiver', () =>
    expectUsage((d) => umaReceive({ ...UMA, receiver: undefined }, d), '--receiver'));
  it('rejects --currency US', () => expectUsage((d) => umaReceive({ ...UMA, currency: 'US' }, d), '--currency'));
  it.each([undefined, '0', '-1', '1.5'])('rejects --amount %j', (amount) =>
    expectUsage((d) => umaReceive({ ...UMA, amount }, d), '--amount'),
  );
});

describe('several bad flags are reported in one error', () => {
  async function expectAll(
    call: (deps: ReturnType<typeof fakeDeps>) => Promise<void>,
    fields: string[],
  ): Promise<void> {
    const deps = fakeDeps({ env: countingEnv(server) });
    const error = await call(deps).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).input).toBe(fields.join(', '));
    expect((error as UsageError).problems!.map((p) => p.input)).toEqual(fields);
    // As shown: one line per flag, each after its name, in the order of the command line's synopsis.
    const lines = shownMessage(error as UsageError).split('\n');
    expect(lines[0]).toBe(`${fields.length} inputs need fixing:`);
    expect(lines.slice(1).map((l) => l.replace(/^ {2}- ([^\s:]+):? .*$/, '$1'))).toEqual(fields);
    expect(server.count()).toBe(0);
  }

  it('fund: the account and --amount', () =>
    expectAll((d) => fund({ account: 'nope', amount: '0' }, d), ['account', '--amount']));
  it('send: --quote, --currency and --amount', () =>
    expectAll(
      (d) => send({ quote: 'Quote:1', currency: 'dollars', amount: '-5' }, d),
      ['--quote', '--currency', '--amount'],
    ));
  it('uma-receive: all four missing', () =>
    expectAll((d) => umaReceive({}, d), ['--sender', '--receiver', '--currency', '--amount']));
  it('a single bad flag keeps its own message', async () => {
    const error = await send({ quote: QUOTE, currency: 'US' }, fakeDeps({ env: countingEnv(server) })).catch(
      (e: UsageError) => e,
    );
    expect(error).toMatchObject({ input: '--currency' });
    expect(shownMessage(error as UsageError)).toMatch(
      /^--currency: Expected a three-letter currency code such as USD; got "US"\.$/,
    );
  });
});

describe('the counting server itself', () => {
  it('counts a request that does get sent (so a 0 above means something)', async () => {
    const deps = fakeDeps({ env: countingEnv(server) });
    const before = server.count();
    await expect(fund({ account: ACCOUNT, amount: '100' }, deps)).rejects.toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
    });
    expect(server.count()).toBe(before + 1);
  });
});
