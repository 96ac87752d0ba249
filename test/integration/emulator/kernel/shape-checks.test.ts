/**
 * Handlers check only business rules: every shape rule they no longer check themselves (required
 * fields, types, enums, patterns, lengths the description declares) is refused by the schema check
 * that runs before them, naming the field and the rule. One row per rule a handler dropped, so a
 * validator that stopped enforcing one fails here, not in a handler that trusted it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestEmulator, testEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const ZERO = '00000000-0000-0000-0000-000000000000';
const id = (kind: string) => encodeURIComponent(`${kind}:${ZERO}`);
const KEY = { 'Idempotency-Key': 'shape-checks' };

interface Row {
  method: string;
  /** With its query, when the rule is a query parameter's. */
  path: string;
  body?: object;
  field: string;
  rule: string;
}

const mint = (body: object) => ({ method: 'POST', path: `/stablecoins/${id('Stablecoin')}/mints`, body });
const burn = (body: object) => ({ method: 'POST', path: `/stablecoins/${id('Stablecoin')}/burns`, body });
const mintBase = { amount: '100', fundingSource: { type: 'WIRE' }, destination: { accountId: 'x' } };
const burnBase = {
  amount: '100',
  source: { type: 'PROVIDER_INTERNAL_BALANCE' },
  destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: 'x', rail: 'WIRE' },
};
const link = { provider: 'BRALE', apiClientId: 'a', apiClientSecret: 's' };
const coin = { providerTokenIdentifier: 'T', networkTokenIdentifier: 'n', network: 'SPARK' };
const without = (body: object, name: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== name));

const ROWS: Record<string, Row[]> = {
  stablecoins: [
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'provider'),
      field: 'provider',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: { ...link, provider: 'OTHER' },
      field: 'provider',
      rule: 'enum',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'apiClientId'),
      field: 'apiClientId',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'apiClientSecret'),
      field: 'apiClientSecret',
      rule: 'required',
    },
    { method: 'GET', path: '/stablecoin-provider-accounts?provider=OTHER', field: 'provider', rule: 'enum' },
    { method: 'GET', path: '/stablecoin-provider-accounts?status=GONE', field: 'status', rule: 'enum' },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'providerTokenIdentifier'),
      field: 'providerTokenIdentifier',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'networkTokenIdentifier'),
      field: 'networkTokenIdentifier',
      rule: 'required',
    },
    { method: 'POST', path: '/stablecoins', body: without(coin, 'network'), field: 'network', rule: 'required' },
    { method: 'POST', path: '/stablecoins', body: { ...coin, network: 'ETHEREUM' }, field: 'network', rule: 'enum' },
    { method: 'GET', path: '/stablecoins?issuanceStatus=DONE', field: 'issuanceStatus', rule: 'enum' },
    { method: 'GET', path: '/stablecoins?gridOperationsStatus=DONE', field: 'gridOperationsStatus', rule: 'enum' },
    { method: 'GET', path: '/stablecoins?provider=OTHER', field: 'provider', rule: 'enum' },
    { ...mint(without(mintBase, 'amount')), field: 'amount', rule: 'required' },
    { ...mint({ ...mintBase, amount: '1.5' }), field: 'amount', rule: 'pattern' },
    { ...mint(without(mintBase, 'fundingSource')), field: 'fundingSource', rule: 'required' },
    { ...mint({ ...mintBase, fundingSource: {} }), field: 'fundingSource.type', rule: 'required' },
    { ...mint({ ...mintBase, fundingSource: { type: 'CASH' } }), field: 'fundingSource.type', rule: 'enum' },
    {
      ...mint({ ...mintBase, fundingSource: { type: 'ACH_DEBIT' } }),
      field: 'fundingSource.externalAccountId',
      rule: 'required',
    },
    { ...mint(without(mintBase, 'destination')), field: 'destination', rule: 'required' },
    { ...mint({ ...mintBase, destination: {} }), field: 'destination.accountId', rule: 'required' },
    { ...mint({ ...mintBase, description: 'd'.repeat(1025) }), field: 'description', rule: 'maxLength' },
    { ...burn(without(burnBase, 'amount')), field: 'amount', rule: 'required' },
    { ...burn(without(burnBase, 'source')), field: 'source', rule: 'required' },
    { ...burn({ ...burnBase, source: { type: 'CASH' } }), field: 'source.type', rule: 'enum' },
    { ...burn(without(burnBase, 'destination')), field: 'destination', rule: 'required' },
    {
      ...burn({ ...burnBase, destination: { ...burnBase.destination, type: 'WALLET' } }),
      field: 'destination.type',
      rule: 'enum',
    },
    {
      ...burn({ ...burnBase, destination: without(burnBase.destination, 'type') }),
      field: 'destination.type',
      rule: 'required',
    },
    {
      ...burn({ ...burnBase, destination: without(burnBase.destination, 'externalAccountId') }),
      field: 'destination.externalAccountId',
      rule: 'required',
    },
    {
      ...burn({ ...burnBase, destination: without(burnBase.destination, 'rail') }),
      field: 'destination.rail',
      rule: 'required',
    },
    {
      ...burn({ ...burnBase, destination: { ...burnBase.destination, rail: 'PIGEON' } }),
      field: 'destination.rail',
      rule: 'enum',
    },
    { ...burn({ ...burnBase, description: 'd'.repeat(1025) }), field: 'description', rule: 'maxLength' },
    {
      method: 'GET',
      path: `/stablecoins/${id('Stablecoin')}/operations?operationType=SWAP`,
      field: 'operationType',
      rule: 'enum',
    },
  ],
};

describe.each(Object.entries(ROWS))('%s: the shape rules its handlers leave to the schema check', (_area, rows) => {
  it.each(rows.map((r) => [`${r.method} ${r.path} ${r.field} ${r.rule}`, r] as const))('%s', async (_name, r) => {
    const answer = await t.call(r.method, r.path, {
      headers: KEY,
      ...(r.body !== undefined ? { body: r.body } : {}),
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.code).toBe('INVALID_INPUT');
    expect(answer.body.details.errors, answer.text).toContainEqual(
      expect.objectContaining({ field: r.field, rule: r.rule }),
    );
  });
});
