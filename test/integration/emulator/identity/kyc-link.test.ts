/**
 * The hosted verification link (POST /customers/{customerId}/kyc-link) over HTTP: its answer
 * shape, redirectUri and Idempotency-Key rules, and the sandbox page it opens, whose submission is
 * one verification (same transitions and webhooks as POST /verifications) and uses the link up.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { errorShape, useEmulatorWithWebhooks } from '../support.js';
import { createBusiness, createIndividual, eventsAbout, uploadPassport } from './support.js';

const { t, hooks } = useEmulatorWithWebhooks();

const link = (customerId: string, body?: object, headers: Record<string, string> = {}) =>
  t.call('POST', `/customers/${customerId}/kyc-link`, { ...(body ? { body } : {}), headers });

/** The hosted page, as a browser opens it: no Authorization. */
async function open(url: string, method: 'GET' | 'POST' = 'GET') {
  const res = await request(url, { method });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe('POST /customers/{customerId}/kyc-link', () => {
  it('201 {kycUrl, expiresAt, provider}; the status does not change; each call is a new link', async () => {
    const c = await createIndividual(t, 'Linda Link 003');
    const now = t.emu.testing.now();
    const first = await link(c.id, { redirectUri: 'https://platform.example/done' });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({
      kycUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/embed\/kyc\/[A-Za-z0-9_-]{32}$/),
      expiresAt: expect.any(String),
      provider: 'SUMSUB',
    });
    expect(Date.parse(first.body.expiresAt) - now).toBeGreaterThanOrEqual(60 * 60 * 1000 - 1000);
    expect((await t.call('GET', `/customers/${c.id}`)).body.kycStatus).toBe('UNVERIFIED');
    const second = await link(c.id);
    expect(second.status).toBe(201);
    expect(second.body.kycUrl).not.toBe(first.body.kycUrl);
    // The older link stays good.
    expect((await open(first.body.kycUrl)).status).toBe(200);
    expect((await open(second.body.kycUrl)).status).toBe(200);
  });

  it('works for a business customer; with no body at all', async () => {
    const b = await createBusiness(t, 'REG-777');
    const answer = await t.call('POST', `/customers/${b.id}/kyc-link`);
    expect(answer.status, answer.text).toBe(201);
    const page = await open(answer.body.kycUrl);
    expect(page.text).toContain('Acme Corp');
  });

  it.each([
    ['http on a public host', 'http://platform.example/done'],
    ['not a URL', 'done-page'],
    ['another scheme', 'ftp://platform.example/done'],
  ])('400 naming redirectUri: %s', async (_name, redirectUri) => {
    const c = await createIndividual(t, 'Bad Redirect');
    expect(errorShape(await link(c.id, { redirectUri }))).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'redirectUri' }] },
    });
  });

  it('http is allowed on localhost (local development)', async () => {
    const c = await createIndividual(t, 'Local Dev');
    expect((await link(c.id, { redirectUri: 'http://localhost:3000/kyc-done' })).status).toBe(201);
  });

  it('404 USER_NOT_FOUND for an unknown customer', async () => {
    expect(errorShape(await link(`Customer:${randomUUID()}`, {}))).toMatchObject({
      status: 404,
      code: 'USER_NOT_FOUND',
    });
  });

  it('Idempotency-Key: the same key replays the first answer; a key used for another customer is 400', async () => {
    const [c, d] = [await createIndividual(t, 'Idem One'), await createIndividual(t, 'Idem Two')];
    const key = randomUUID();
    const first = await link(c.id, {}, { 'idempotency-key': key });
    const again = await link(c.id, {}, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await link(c.id, {}, { 'idempotency-key': randomUUID() })).body.kycUrl).not.toBe(first.body.kycUrl);
    const other = await link(d.id, {}, { 'idempotency-key': key });
    expect(errorShape(other)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'Idempotency-Key' }] },
    });
  });
});

describe('the hosted page', () => {
  it('shows the data already sent (never the identifier); submitting is a verification, then the link is used up', async () => {
    const c = await createIndividual(t, 'Pending Person 001');
    await uploadPassport(t, c.id);
    const made = await link(c.id);
    const page = await open(made.body.kycUrl);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Pending Person 001');
    expect(page.text).not.toContain('123-45-6789');

    const submitted = await open(made.body.kycUrl, 'POST');
    expect(submitted.status).toBe(200);
    expect(submitted.text).toContain('PENDING_MANUAL_REVIEW');
    const list = await t.call('GET', `/verifications?customerId=${c.id}`);
    expect(list.body.data.map((v: { verificationStatus: string }) => v.verificationStatus)).toEqual([
      'PENDING_MANUAL_REVIEW',
    ]);
    const types = (await eventsAbout(t, hooks, c.id)).map((d) => d.body.type);
    expect(types).toEqual(expect.arrayContaining(['VERIFICATION.PENDING_MANUAL_REVIEW', 'CUSTOMER.KYC_PENDING']));

    expect((await open(made.body.kycUrl)).status).toBe(404);
    expect((await open(made.body.kycUrl, 'POST')).status).toBe(404);
    expect((await t.call('GET', `/verifications?customerId=${c.id}`)).body.data).toHaveLength(1);
  });

  it('with a redirectUri, the submission sends the browser there (303)', async () => {
    const c = await createIndividual(t, 'Missing Data 003', {});
    const made = await link(c.id, { redirectUri: 'https://platform.example/kyc-done' });
    const submitted = await open(made.body.kycUrl, 'POST');
    expect(submitted.status).toBe(303);
    expect(submitted.headers.location).toBe('https://platform.example/kyc-done');
    expect((await t.call('GET', `/verifications?customerId=${c.id}`)).body.data[0].verificationStatus).toBe(
      'RESOLVE_ERRORS',
    );
  });

  it('a customer already decided: the page answers the refusal of POST /verifications as a page (400) and the link stays', async () => {
    const c = await createIndividual(t, 'Approved Already');
    const made = await link(c.id);
    const submitted = await open(made.body.kycUrl, 'POST');
    expect(submitted.status).toBe(400);
    expect(submitted.headers['content-type']).toMatch(/^text\/html/);
    expect(submitted.text).toMatch(/already KYC APPROVED/);
    expect((await open(made.body.kycUrl)).status).toBe(200);
  });

  it('a link expires after an hour of emulator time; an unknown token is 404', async () => {
    const c = await createIndividual(t, 'Late Person');
    const made = await link(c.id);
    t.emu.testing.advanceClock(60 * 60 * 1000);
    expect((await open(made.body.kycUrl)).status).toBe(404);
    expect((await open(made.body.kycUrl, 'POST')).status).toBe(404);
    expect((await t.call('GET', `/verifications?customerId=${c.id}`)).body.data).toEqual([]);
    expect((await open(`${new URL(made.body.kycUrl).origin}/embed/kyc/unknown`)).status).toBe(404);
  });
});
