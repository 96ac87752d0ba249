/**
 * The kernel's agent scope rules (src/emulator/kernel/agent-scope.ts) over hand-made records: a
 * record's owner is found through its owner fields, also nested in `source`, `destination` and
 * `fields` (quotes, transactions), and an agent's request naming another customer's id anywhere
 * in its JSON body is 404 as an unknown id would be. The HTTP tests (agents*.test.ts) cover the
 * areas' real records; these pin each place an owner can be read from.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callerSees, checkAgentRequest } from '../../../src/emulator/kernel/agent-scope.js';
import type { EmulatorContext } from '../../../src/emulator/kernel/context.js';
import { HttpError } from '../../../src/emulator/kernel/errors.js';
import type { Req } from '../../../src/emulator/kernel/router.js';

const id = (kind: string) => `${kind}:${randomUUID()}`;
const mine = id('Customer');
const theirs = id('Customer');
const myAccount = id('InternalAccount');
const theirAccount = id('InternalAccount');
const theirExternal = id('ExternalAccount');

const records = new Map<string, unknown>([
  [myAccount, { id: myAccount, customerId: mine }],
  [theirAccount, { id: theirAccount, customerId: theirs }],
  [theirExternal, { id: theirExternal, accountId: theirAccount }],
]);
const emu = { lookup: (key: string) => records.get(key) } as unknown as EmulatorContext;

function request(init: { body?: unknown; raw?: string; params?: Record<string, string>; query?: string }): Req {
  const raw = Buffer.from(init.raw ?? (init.body === undefined ? '' : JSON.stringify(init.body)));
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  return {
    method: 'POST',
    path: '/x',
    query: new URLSearchParams(init.query ?? ''),
    headers,
    raw,
    params: init.params ?? {},
    principal: { kind: 'agent', agentId: id('Agent'), customerId: mine },
    header: (name: string) => headers[name.toLowerCase()],
    json: () => JSON.parse(raw.toString('utf8')) as Record<string, unknown>,
  };
}

function hiddenAs(req: Req): string | undefined {
  try {
    checkAgentRequest(emu, req);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(404);
    return (error as HttpError).code;
  }
}

describe('who owns a record', () => {
  const sees = callerSees(emu, request({}));
  it.each([
    ['its customerId', { customerId: theirs }],
    ['an account it names', { accountId: theirAccount }],
    ['source.accountId (a quote)', { id: id('Quote'), source: { accountId: theirAccount } }],
    ['destination.accountId', { id: id('Quote'), destination: { accountId: theirExternal } }],
    ['fields.customerId (a transaction)', { id: id('Transaction'), fields: { customerId: theirs } }],
    ['an account behind an account', { id: id('Card'), fields: { accountId: theirExternal } }],
  ])("another customer's record is hidden when its owner is read from %s", (_where, record) => {
    expect(sees(record)).toBe(false);
  });

  it.each([
    ['source.accountId', { id: id('Quote'), source: { accountId: myAccount } }],
    ['fields.customerId', { id: id('Transaction'), fields: { customerId: mine } }],
    ['nothing at all (nobody in particular)', { id: id('ExchangeRate') }],
  ])("the agent's own record, or an ownerless one, is seen (%s)", (_where, record) => {
    expect(sees(record)).toBe(true);
  });
});

describe('ids in an agent request', () => {
  it.each([
    ['a path parameter', { params: { id: theirAccount } }],
    ['the query', { query: `accountId=${theirAccount}` }],
    ['a nested body field', { body: { source: { accountId: theirAccount }, amount: 1 } }],
    ['a body array', { body: { fundingSources: [myAccount, theirAccount] } }],
    ['an id owned through another record', { body: { destination: { externalAccountId: theirExternal } } }],
  ])("another customer's id in %s is 404", (_where, init) => {
    expect(hiddenAs(request(init))).toBe('REFERENCE_NOT_FOUND');
  });

  it("another customer's own id is 404 USER_NOT_FOUND", () => {
    expect(hiddenAs(request({ body: { customerId: theirs } }))).toBe('USER_NOT_FOUND');
  });

  it("its own ids pass, and a body that is not JSON is left to the handler's 400", () => {
    expect(hiddenAs(request({ body: { source: { accountId: myAccount }, customerId: mine } }))).toBeUndefined();
    expect(hiddenAs(request({ raw: '{"source": {"accountId": ' }))).toBeUndefined();
  });
});
