/**
 * Every runnable `svc trigger` scenario on the emulator, its waits spent by advancing the emulator's
 * virtual clock over HTTP (POST /_emulator/clock/advance), never by sleeping; the observed values
 * (the service's answers) must be those of the spec's tables. Also: the list covers every row the
 * issue names, and a production token is refused before anything is created.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createClient } from '../../../src/http/client.js';
import type { ApiClient } from '../../../src/http/types.js';
import { SCENARIOS } from '../../../src/trigger/catalog.js';
import { isRunnable, ProductionTokenError, runScenario } from '../../../src/trigger/run.js';
import { rejected } from '../../helpers/caught.js';
import { RejectedInputError } from '../../../src/errors.js';
import { ContractValidator } from '../../contract/validator.js';

let emu: RunningEmulator;
let client: ApiClient;
let advanced = 0;

/** The recipes' waits move the emulator clock instead of the wall clock. */
async function advanceClock(ms: number): Promise<void> {
  const auth = Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64');
  const res = await fetch(new URL('/_emulator/clock/advance', emu.baseUrl), {
    method: 'POST',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  expect(res.status).toBe(200);
  advanced += ms;
}

/** Every request the scenarios sent through `client`: `METHOD /path` (no query). */
const sent = new Set<string>();

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const direct = createClient({
    baseUrl: emu.baseUrl,
    auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
  });
  client = {
    ...direct,
    request: (req) => {
      sent.add(`${req.method} ${req.path.split('?')[0]}`);
      return direct.request(req);
    },
  };
});
afterAll(() => emu.close());

/** The names the issue lists, area by area. */
const ISSUE_NAMES = {
  kyc: ['pending', 'rejected', 'unverified', 'review', 'poor-document', 'missing-data'],
  kyb: ['approved', 'rejected', 'review'],
  owner: ['pending', 'rejected', 'approved'],
  transfer: ['success', 'insufficient-funds', 'account-closed', 'bank-rejected', 'pending-then-fail'],
  beneficiary: [
    'matched',
    'not-matched',
    'partial-match',
    'pending',
    'invalid-account',
    'unsupported',
    'checked-by-receiving-fi',
  ],
  quote: ['success', 'failed', 'long', 'delivery-failed', 'returned', 'cancelled', 'refund-failed', 'realtime-funding'],
  uma: ['success-usd', 'success-eur', 'success-mxn', 'pending-long', 'compliance-fail'],
  card: ['issued', 'issuer-rejected', 'frozen', 'unfrozen', 'closed', 'funding-changed'],
  'card-transaction': [
    'approved',
    'declined-funds',
    'declined-paused',
    'delayed-pull',
    'exception',
    'partially-settled',
    'refunded',
  ],
};

describe('svc trigger scenarios', () => {
  it('the list has one scenario for every row the issue names, each with a magic value and an expectation', () => {
    const names = SCENARIOS.map((s) => s.name);
    const wanted = Object.entries(ISSUE_NAMES).flatMap(([area, outcomes]) => outcomes.map((o) => `${area}.${o}`));
    expect(names).toEqual(expect.arrayContaining(wanted));
    expect(new Set(names).size).toBe(names.length);
    for (const s of SCENARIOS) {
      expect(s.magic.value, s.name).not.toBe('');
      expect(Object.keys(s.expect).length, s.name).toBeGreaterThan(0);
    }
  });

  const runnable = SCENARIOS.filter(isRunnable);
  it('every scenario is runnable on the emulator (identity and money areas are in)', () => {
    expect(runnable.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
  });

  for (const scenario of runnable) {
    it(`${scenario.name}: observed ${JSON.stringify(scenario.expect)}`, async () => {
      const before = advanced;
      // auth.* log in on the emulator's fixture credential (the command defaults to the active session's).
      const inputs = scenario.area === 'auth' ? { credentialId: emu.fixtures.credentialId, set: {} } : undefined;
      const report = await runScenario(client, scenario, { wait: true, sleep: advanceClock, inputs });
      expect(report.scenario).toBe(scenario.name);
      expect(report.magic).toEqual(scenario.magic);
      for (const [field, value] of Object.entries(scenario.expect))
        expect(String(report.observed[field]), `${scenario.name} ${field}`).toBe(value);
      expect(Object.keys(report.resources).length).toBeGreaterThan(0);
      for (const id of Object.values(report.resources)) expect(id).toMatch(/^[A-Za-z]+:[0-9a-f-]{36}$/);
      // A delayed outcome was reached by moving the clock at least that far.
      expect(advanced - before).toBeGreaterThanOrEqual(scenario.delayMs);
    });
  }

  it('observed values are the service answers: a card read back has the reported state', async () => {
    const report = await runScenario(client, SCENARIOS.find((s) => s.name === 'card.frozen')!, {
      wait: true,
      sleep: advanceClock,
    });
    const card = await client.request<{ state: string }>({ method: 'GET', path: `/cards/${report.resources.cardId}` });
    expect(card.body.state).toBe(report.observed.state);
  });

  it('a given account is looked up in the lists (the public API has no single-account read); another customer’s or an unknown one is refused', async () => {
    const card = SCENARIOS.find((s) => s.name === 'card.issued')!;
    const report = await runScenario(client, card, {
      wait: false,
      sleep: advanceClock,
      inputs: { accountId: emu.fixtures.accountId, set: {} },
    });
    expect(report.resources).toMatchObject({ accountId: emu.fixtures.accountId, customerId: emu.fixtures.customerId });
    expect(report.reused).toEqual(expect.arrayContaining(['accountId', 'customerId']));
    const stranger = await client.request<{ id: string }>({
      method: 'POST',
      path: '/customers',
      body: { customerType: 'INDIVIDUAL', fullName: 'Account Stranger' },
    });
    const refused = await rejected(
      runScenario(client, card, {
        wait: false,
        sleep: advanceClock,
        inputs: { accountId: emu.fixtures.accountId, customerId: stranger.body.id, set: {} },
      }),
      RejectedInputError,
    );
    expect(refused).toMatchObject({ input: 'account', reason: 'NOT_THE_CUSTOMERS' });
    const unknown = await rejected(
      runScenario(client, card, {
        wait: false,
        sleep: advanceClock,
        inputs: { accountId: 'InternalAccount:00000000-0000-4000-8000-000000000000', set: {} },
      }),
      RejectedInputError,
    );
    expect(unknown).toMatchObject({ input: 'account', reason: 'NOT_FOUND' });
  });

  it('every request the scenarios sent is an operation of the service’s public API description', () => {
    const description = new ContractValidator(
      fileURLToPath(new URL('../../contract/api-schema.json', import.meta.url)),
    );
    expect(sent.size).toBeGreaterThan(20);
    expect(
      [...sent].filter((request) => description.match(...(request.split(' ') as [string, string])) === undefined),
    ).toEqual([]);
  });

  it('without --wait a card scenario reports the state at creation', async () => {
    const report = await runScenario(client, SCENARIOS.find((s) => s.name === 'card.issued')!, {
      wait: false,
      sleep: advanceClock,
    });
    expect(report.observed.state).toBe('PROCESSING');
  });
});

describe('a production token', () => {
  let server: Server;
  const seen: string[] = [];
  beforeAll(async () => {
    // Production: sandbox endpoints answer 403, everything else would create real resources.
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      const sandbox = req.url!.includes('/sandbox/');
      res
        .writeHead(sandbox ? 403 : 201, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            sandbox
              ? { status: 403, code: 'FORBIDDEN', message: 'Sandbox endpoints are not available in production' }
              : { id: 'Customer:real' },
          ),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is refused with a message saying so, before any resource is created', async () => {
    const prod = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      auth: { kind: 'basic', tokenId: 'prod', secret: 'prod-secret' },
    });
    const error = await rejected(
      runScenario(prod, SCENARIOS.find((s) => s.name === 'kyc.pending')!, { wait: false, sleep: async () => {} }),
      ProductionTokenError,
    );
    expect(error.message).toContain('production token');
    expect(seen).toEqual(['POST /2025-10-13/sandbox/send']);
  });
});
