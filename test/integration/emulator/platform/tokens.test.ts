/**
 * API tokens: a token made with POST /tokens is a working pair of Basic credentials, limited to its
 * permissions (VIEW reads, TRANSACT moves money, MANAGE changes the rest); its secret is shown once
 * and never again; deleting it stops it at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function token(permissions: string[], name = 'ci'): Promise<{ id: string; auth: string; body: any }> {
  const answer = await t.call('POST', '/tokens', { body: { name, permissions } });
  expect(answer.status, answer.text).toBe(201);
  return { id: answer.body.id, auth: basic(answer.body.clientId, answer.body.clientSecret), body: answer.body };
}

describe('API tokens', () => {
  it('201 with clientId and clientSecret once; GET never shows the secret', async () => {
    const { id, body } = await token(['VIEW'], 'reporting');
    expect(body).toMatchObject({ id: expect.stringMatching(/^Token:/), name: 'reporting', permissions: ['VIEW'] });
    expect(body.clientSecret).toEqual(expect.any(String));
    const got = await t.call('GET', `/tokens/${id}`);
    const { clientSecret: _secret, ...shown } = body;
    expect(got.body).toEqual(shown);
    expect(got.text).not.toContain(body.clientSecret);
    const list = await t.call('GET', '/tokens?name=reporting');
    expect(list.body).toMatchObject({ hasMore: false, totalCount: 1, data: [expect.objectContaining({ id })] });
    expect(list.text).not.toContain('secret');
  });

  it.each([
    [['VIEW'], 'GET', '/customers', 200],
    // 403 where the operation declares it for a missing permission, else the declared 401.
    [['VIEW'], 'PATCH', '/config', 401],
    [['VIEW'], 'POST', '/sandbox/send', 403],
    [['TRANSACT'], 'GET', '/customers', 401],
    [['TRANSACT'], 'POST', '/sandbox/send', 400],
    [['MANAGE'], 'POST', '/tokens', 400],
    [['MANAGE'], 'POST', '/quotes', 403],
  ])('a %j token: %s %s → %i', async (permissions, method, path, status) => {
    const { auth } = await token(permissions);
    const answer = await t.call(method, path, { auth, ...(method === 'GET' ? {} : { body: {} }) });
    expect(answer.status, answer.text).toBe(status);
    if (status === 403)
      expect(errorShape(answer)).toMatchObject({ code: 'FORBIDDEN', details: { permission: expect.any(String) } });
    if (status === 401)
      expect(errorShape(answer)).toMatchObject({
        code: 'UNAUTHORIZED',
        reason: expect.stringMatching(/lacks the (VIEW|MANAGE) permission/),
        details: { permission: expect.any(String) },
      });
  });

  it('a wrong secret is 401; a deleted token stops working; deleting again is 404 TOKEN_NOT_FOUND', async () => {
    const { id, auth, body } = await token(['VIEW']);
    expect((await t.call('GET', '/customers', { auth: basic(body.clientId, 'wrong') })).status).toBe(401);
    expect((await t.call('GET', '/customers', { auth })).status).toBe(200);
    expect((await t.call('DELETE', `/tokens/${id}`)).status).toBe(204);
    expect((await t.call('GET', '/customers', { auth })).status).toBe(401);
    expect(errorShape(await t.call('DELETE', `/tokens/${id}`))).toMatchObject({ status: 404, code: 'TOKEN_NOT_FOUND' });
  });

  it('bad input: 400 naming name and permissions', async () => {
    const answer = await t.call('POST', '/tokens', { body: { permissions: ['ADMIN'] } });
    expect(errorShape(answer).details.errors.map((e: any) => e.field)).toEqual(['name', 'permissions[0]']);
  });
});
