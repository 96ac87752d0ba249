/**
 * Handlers check only business rules: every shape rule they no longer check themselves (required
 * fields, types, enums, patterns, lengths the description declares) is refused by the schema check
 * that runs before them, naming the field and the rule. One row per rule a handler dropped, so a
 * validator that stopped enforcing one fails here, not in a handler that trusted it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestEmulator, testEmulator } from '../support.js';
import { AGENT_ROWS } from './shape-checks/agents-rows.js';
import { AUTH_ROWS } from './shape-checks/auth-rows.js';
import { CARD_ROWS } from './shape-checks/cards-rows.js';
import { CUSTOMER_ROWS } from './shape-checks/customers-rows.js';
import { EXTERNAL_ACCOUNT_ROWS } from './shape-checks/external-accounts-rows.js';
import { MONEY_ROWS } from './shape-checks/money-rows.js';
import { STABLECOIN_ROWS } from './shape-checks/stablecoins-rows.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const KEY = { 'Idempotency-Key': 'shape-checks' };
const AREAS = {
  ...AGENT_ROWS,
  ...AUTH_ROWS,
  ...CARD_ROWS,
  ...CUSTOMER_ROWS,
  ...EXTERNAL_ACCOUNT_ROWS,
  ...MONEY_ROWS,
  ...STABLECOIN_ROWS,
};

describe.each(Object.entries(AREAS))('%s: the shape rules its handlers leave to the schema check', (_area, rows) => {
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
