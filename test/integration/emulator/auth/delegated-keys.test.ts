/**
 * Delegated keys over HTTP: the three-leg signed creation (202, 202, 201) signed with a real session
 * key of the funding wallet, the one-ACTIVE-key rule, the PENDING key an abandoned flow leaves,
 * list filters, revoke, and the description's 400/401/404/409 answers (409 also when another flow
 * activated a key between the legs).
 */
import { describe, expect, it } from 'vitest';
import { errorShape, signedHeaders, useLoggedInEmulator, type Answer } from '../support.js';

const { t, login } = useLoggedInEmulator();
const ZERO = '00000000-0000-0000-0000-000000000000';

const body = (nickname = 'card signer') => ({
  cardId: t.emu.fixtures.cardId,
  internalAccountId: t.emu.fixtures.accountId,
  nickname,
});
const post = (raw: string, headers: Record<string, string> = {}) =>
  t.call('POST', '/auth/delegated-keys', { body: raw, headers });

/** Leg 1 → signed leg 2 → (optionally) signed leg 3. */
async function create(nickname: string, finish = true): Promise<{ legs: Answer[] }> {
  const raw = JSON.stringify(body(nickname));
  const first = await post(raw);
  expect(first.status, first.text).toBe(202);
  const second = await post(raw, signedHeaders(first.body, login.privateKey));
  expect(second.status, second.text).toBe(202);
  if (!finish) return { legs: [first, second] };
  const third = await post(raw, signedHeaders(second.body, login.privateKey));
  return { legs: [first, second, third] };
}

const revokeActive = async () => {
  const list = await t.call('GET', `/auth/delegated-keys?accountId=${t.emu.fixtures.accountId}`);
  for (const k of list.body.data.filter((k: any) => k.status === 'ACTIVE'))
    expect((await t.call('DELETE', `/auth/delegated-keys/${k.id}`)).status).toBe(204);
};

describe('delegated keys', () => {
  it('three legs: two challenges naming their activities, then 201 ACTIVE with a compressed P-256 key', async () => {
    await revokeActive();
    const { legs } = await create('checkout signer');
    const [first, second, third] = legs as [Answer, Answer, Answer];
    expect(JSON.parse(first.body.payloadToSign).type).toBe('ACTIVITY_TYPE_CREATE_USERS_V3');
    expect(JSON.parse(second.body.payloadToSign).type).toBe('ACTIVITY_TYPE_CREATE_POLICIES');
    expect(third.status, third.text).toBe(201);
    const publicKey = JSON.parse(first.body.payloadToSign).parameters.apiKeys[0].publicKey;
    expect(third.body).toMatchObject({
      id: expect.stringMatching(/^DelegatedKey:/),
      cardId: t.emu.fixtures.cardId,
      fundingSourceId: expect.stringMatching(/^CardFundingSource:[0-9a-f-]{36}$/),
      accountId: t.emu.fixtures.accountId,
      publicKey,
      nickname: 'checkout signer',
      status: 'ACTIVE',
    });
    expect(publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect((await t.call('GET', `/auth/delegated-keys/${third.body.id}`)).body).toEqual(third.body);
    const again = await post(JSON.stringify(body()));
    expect([again.status, errorShape(again).code]).toEqual([409, 'CONFLICT']);
  });

  it('an abandoned flow leaves a PENDING key that blocks nothing; lists filter by account and funding source', async () => {
    await revokeActive();
    const { legs } = await create('abandoned', false);
    const list = await t.call('GET', `/auth/delegated-keys?accountId=${t.emu.fixtures.accountId}`);
    const pending = list.body.data.find((k: any) => k.nickname === 'abandoned');
    expect(pending.status).toBe('PENDING');
    expect(JSON.parse(legs[1]!.body.payloadToSign).parameters.delegatedKeyId).toBe(pending.id);
    const { legs: done } = await create('after abandoned');
    expect(done[2]!.status).toBe(201);
    const bySource = await t.call('GET', `/auth/delegated-keys?fundingSourceId=${pending.fundingSourceId}`);
    expect(bySource.body.data.map((k: any) => k.nickname)).toEqual(
      expect.arrayContaining(['abandoned', 'after abandoned']),
    );
    const none = await t.call('GET', `/auth/delegated-keys?fundingSourceId=CardFundingSource:${ZERO}`);
    expect(none.body).toEqual({ data: [] });
  });

  it('revoke: 204, then 400 (not ACTIVE); 404 for an unknown key', async () => {
    await revokeActive();
    const { legs } = await create('to revoke');
    const id = legs[2]!.body.id;
    expect((await t.call('DELETE', `/auth/delegated-keys/${id}`)).status).toBe(204);
    expect((await t.call('GET', `/auth/delegated-keys/${id}`)).body.status).toBe('REVOKED');
    expect(errorShape(await t.call('DELETE', `/auth/delegated-keys/${id}`))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect((await t.call('DELETE', `/auth/delegated-keys/DelegatedKey:${ZERO}`)).status).toBe(404);
  });

  it.each([
    ['first', 1],
    ['second', 2],
  ])(
    'another flow that activated a key meanwhile: the signed retry of the %s leg is 409 CONFLICT naming that key',
    async (_leg, leg) => {
      await revokeActive();
      const raw = JSON.stringify(body('late'));
      let challenge = (await post(raw)).body;
      if (leg === 2) challenge = (await post(raw, signedHeaders(challenge, login.privateKey))).body;
      const { legs } = await create('meanwhile');
      const activeId = legs[2]!.body.id as string;
      const late = await post(raw, signedHeaders(challenge, login.privateKey));
      expect(errorShape(late)).toMatchObject({ status: 409, code: 'CONFLICT' });
      expect(late.body.message).toContain(`already has an ACTIVE delegated key (${activeId}); revoke it first`);
    },
  );

  it('every leg must send the same body; a stranger key cannot sign', async () => {
    await revokeActive();
    const first = await post(JSON.stringify(body('one')));
    const changed = await post(JSON.stringify(body('two')), signedHeaders(first.body, login.privateKey));
    expect(errorShape(changed)).toMatchObject({ status: 401, code: 'WALLET_SIGNATURE_BODY_MISMATCH' });
    const stranger = '11'.repeat(32);
    const forged = await post(JSON.stringify(body('one')), signedHeaders(first.body, stranger));
    expect(forged.status).toBe(401);
  });

  it.each([
    ['no body fields', () => ({}), 400],
    ['an unknown card', () => ({ ...body(), cardId: `Card:${ZERO}` }), 404],
    [
      'an account that does not fund the card',
      () => ({ ...body(), internalAccountId: `InternalAccount:${ZERO}` }),
      404,
    ],
  ])('%s: %i', async (_name, payload, status) => {
    const answer = await post(JSON.stringify(payload()));
    expect(errorShape(answer).status).toBe(status);
  });

  it('a list needs accountId or fundingSourceId: 400 naming accountId', async () => {
    const answer = await t.call('GET', '/auth/delegated-keys');
    expect(errorShape(answer).details.errors[0].field).toBe('accountId');
  });
});
