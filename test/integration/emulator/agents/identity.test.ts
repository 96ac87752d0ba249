/**
 * Agent scoping on the identity areas over HTTP: an agent's Bearer token, bound to one (business)
 * customer, reads and changes that customer's customer record, documents (its own and its
 * owners'), verifications and beneficial owners; another customer's are 404 as if unknown and
 * stay unchanged, and lists (their counts and pages too) hold only its own. The platform still
 * sees everything.
 */
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, connectAgent, errorShape, useLoggedInEmulator } from '../support.js';
import { JPEG, createBusiness, createIndividual, multipart, ownerBody, uploadPassport } from '../identity/support.js';

const { t } = useLoggedInEmulator();

const policy = {
  permissions: ['VIEW_TRANSACTIONS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: null },
};

/** The agent's world (a business with an owner, a document of each, a verification) and another customer's. */
const mine: Record<string, string> = {};
const theirs: Record<string, string> = {};
let bearer: string;

beforeAll(async () => {
  const business = await createBusiness(t, 'AGENT-001');
  mine.customer = business.id;
  mine.owner = (await t.call('POST', '/beneficial-owners', { body: ownerBody(business.id, 'Mine') })).body.id;
  mine.document = (await uploadPassport(t, business.id)).id;
  mine.ownerDocument = (await uploadPassport(t, mine.owner)).id;
  mine.verification = (await t.call('POST', '/verifications', { body: { customerId: business.id } })).body.id;

  const other = await createBusiness(t, 'OTHER-001');
  theirs.customer = other.id;
  theirs.owner = (await t.call('POST', '/beneficial-owners', { body: ownerBody(other.id, 'Theirs') })).body.id;
  theirs.document = (await uploadPassport(t, other.id)).id;
  theirs.ownerDocument = (await uploadPassport(t, theirs.owner)).id;
  theirs.verification = (await t.call('POST', '/verifications', { body: { customerId: other.id } })).body.id;
  theirs.individual = (await createIndividual(t, 'Someone Else 003')).id;

  ({ bearer } = await connectAgent(t, business.id, policy, 'KYB helper'));
});

const asAgent = (method: string, path: string, body?: object) =>
  t.call(method, path, { auth: bearer, ...(body ? { body } : {}) });

/** A multipart upload with the agent's token. */
async function agentUpload(holder: string, replace?: string): Promise<Answer> {
  const form = new FormData();
  if (!replace) form.append('documentHolder', holder);
  form.append('documentType', 'PASSPORT');
  form.append('country', 'US');
  form.append('file', new Blob([JPEG], { type: 'image/jpeg' }), 'p.jpg');
  const { body, contentType } = await multipart(form);
  const res = await request(`${t.emu.baseUrl}/documents${replace ? `/${replace}` : ''}`, {
    method: replace ? 'PUT' : 'POST',
    body,
    headers: { authorization: bearer, 'content-type': contentType },
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined, headers: res.headers, text };
}

type Case = [
  string,
  string,
  (w: Record<string, string>) => string,
  ((w: Record<string, string>) => object) | undefined,
  string,
];

describe("another customer's identity resources are 404 to an agent; its own answer", () => {
  it.each<Case>([
    ['GET customer', 'GET', (w) => `/customers/${w.customer}`, undefined, 'USER_NOT_FOUND'],
    [
      'PATCH customer',
      'PATCH',
      (w) => `/customers/${w.customer}`,
      () => ({ customerType: 'BUSINESS', businessInfo: { doingBusinessAs: 'Renamed' } }),
      'USER_NOT_FOUND',
    ],
    ['KYC link', 'POST', (w) => `/customers/${w.customer}/kyc-link`, () => ({}), 'USER_NOT_FOUND'],
    ['GET document', 'GET', (w) => `/documents/${w.document}`, undefined, 'REFERENCE_NOT_FOUND'],
    ["GET an owner's document", 'GET', (w) => `/documents/${w.ownerDocument}`, undefined, 'REFERENCE_NOT_FOUND'],
    ['documents of a holder', 'GET', (w) => `/documents?documentHolder=${w.customer}`, undefined, 'USER_NOT_FOUND'],
    ['GET verification', 'GET', (w) => `/verifications/${w.verification}`, undefined, 'REFERENCE_NOT_FOUND'],
    [
      'verifications of a customer',
      'GET',
      (w) => `/verifications?customerId=${w.customer}`,
      undefined,
      'USER_NOT_FOUND',
    ],
    ['POST verification', 'POST', () => '/verifications', (w) => ({ customerId: w.customer }), 'USER_NOT_FOUND'],
    ['GET owner', 'GET', (w) => `/beneficial-owners/${w.owner}`, undefined, 'REFERENCE_NOT_FOUND'],
    [
      'PATCH owner',
      'PATCH',
      (w) => `/beneficial-owners/${w.owner}`,
      () => ({ ownershipPercentage: 30 }),
      'REFERENCE_NOT_FOUND',
    ],
    ['owners of a business', 'GET', (w) => `/beneficial-owners?customerId=${w.customer}`, undefined, 'USER_NOT_FOUND'],
    ['POST owner', 'POST', () => '/beneficial-owners', (w) => ownerBody(w.customer!, 'Added'), 'USER_NOT_FOUND'],
  ])('%s', async (_name, method, path, body, code) => {
    const own = await asAgent(method, path(mine), body?.(mine));
    expect(own.status, own.text).toBeLessThan(300);
    const other = await asAgent(method, path(theirs), body?.(theirs));
    expect(errorShape(other)).toMatchObject({ status: 404, code });
    // The platform still reaches it.
    if (method === 'GET') expect((await t.call(method, path(theirs))).status).toBe(200);
  });

  it('a write that is 404 changes nothing', async () => {
    const before = (await t.call('GET', `/beneficial-owners/${theirs.owner}`)).body;
    expect((await asAgent('PATCH', `/beneficial-owners/${theirs.owner}`, { ownershipPercentage: 1 })).status).toBe(404);
    expect((await t.call('GET', `/beneficial-owners/${theirs.owner}`)).body).toEqual(before);
    const verifications = (await t.call('GET', `/verifications?customerId=${theirs.customer}`)).body.totalCount;
    expect((await asAgent('POST', '/verifications', { customerId: theirs.customer })).status).toBe(404);
    expect((await t.call('GET', `/verifications?customerId=${theirs.customer}`)).body.totalCount).toBe(verifications);
    expect((await asAgent('DELETE', `/customers/${theirs.individual}`)).status).toBe(404);
    expect((await t.call('GET', `/customers/${theirs.individual}`)).body).not.toHaveProperty('isDeleted');
  });

  it('multipart uploads are bound too: a document for another customer or its owner is 404 and not stored', async () => {
    const count = async () => (await t.call('GET', '/documents?limit=100')).body.totalCount;
    const before = await count();
    expect(errorShape(await agentUpload(theirs.customer!))).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    expect(errorShape(await agentUpload(theirs.owner!))).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect(errorShape(await agentUpload('', theirs.document))).toMatchObject({ status: 404 });
    expect(await count()).toBe(before);
    expect((await agentUpload(mine.owner!)).status).toBe(201);
    expect((await agentUpload('', mine.document)).status).toBe(200);
  });

  it("DELETE of another customer's document is 404 and keeps it", async () => {
    expect(errorShape(await asAgent('DELETE', `/documents/${theirs.ownerDocument}`))).toMatchObject({ status: 404 });
    expect((await t.call('GET', `/documents/${theirs.ownerDocument}`)).status).toBe(200);
  });
});

describe("lists hold the agent's own items, counted and paged as such", () => {
  it.each([
    ['/customers', () => [mine.customer]],
    ['/verifications', () => [mine.verification]],
  ])('%s', async (path, expected) => {
    const list = await asAgent('GET', `${path}?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining(expected()));
    expect(
      list.body.data.every((x: { id: string; customerId?: string }) => (x.customerId ?? x.id) === mine.customer),
    ).toBe(true);
    expect(list.body.totalCount).toBe(list.body.data.length);
    expect((await t.call('GET', `${path}?limit=100`)).body.totalCount).toBeGreaterThan(list.body.totalCount);
  });

  it("/documents: the customer's and its owners' only; a page of one is full and continues to its own next item", async () => {
    const all = await asAgent('GET', '/documents?limit=100');
    const holders = new Set(all.body.data.map((d: { documentHolder: string }) => d.documentHolder));
    expect([...holders].sort()).toEqual([mine.customer, mine.owner].sort());
    expect(all.body.totalCount).toBe(all.body.data.length);
    const first = await asAgent('GET', '/documents?limit=1');
    expect(first.body).toMatchObject({
      data: [{ id: all.body.data[0].id }],
      hasMore: true,
      totalCount: all.body.totalCount,
    });
    const next = await asAgent('GET', `/documents?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(next.body.data[0].id).toBe(all.body.data[1].id);
  });

  it('/beneficial-owners of its own business', async () => {
    const list = await asAgent('GET', `/beneficial-owners?customerId=${mine.customer}`);
    expect(list.body.data.map((o: { id: string }) => o.id)).toContain(mine.owner);
  });

  it('an agent cannot create customers (403 FORBIDDEN): one would not be its own', async () => {
    const answer = await asAgent('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'New Person' });
    expect(errorShape(answer)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});
