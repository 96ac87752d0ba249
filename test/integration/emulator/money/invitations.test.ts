/**
 * UMA invitations: made by a platform customer, claimed once by an invitee (INVITATION.CLAIMED,
 * signed), cancelled only while PENDING, expired by the emulator's clock; the url shows the status.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { errorShape, nodeVerifyWebhook, useEmulatorWithWebhooks } from '../support.js';

const { t, hooks } = useEmulatorWithWebhooks();

async function invite(extra: Record<string, unknown> = {}): Promise<any> {
  const answer = await t.call('POST', '/invitations', { body: { inviterUma: t.emu.fixtures.umaAddress, ...extra } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const fieldsOf = (answer: any) => errorShape(answer).details.errors.map((e: any) => e.field);

async function pageStatus(url: string): Promise<string | undefined> {
  const res = await request(url);
  return /data-status="([A-Z]+)"/.exec(await res.body.text())?.[1];
}

describe('invitations', () => {
  it('201 PENDING with a code and a url; GET by code; amountToSend in the inviter’s currency', async () => {
    const inv = await invite({ firstName: 'Alice', amountToSend: 12550 });
    expect(inv).toMatchObject({
      code: expect.stringMatching(/^[0-9a-f]{8}$/),
      status: 'PENDING',
      inviterUma: t.emu.fixtures.umaAddress,
      firstName: 'Alice',
      amountToSend: { amount: 12550, currency: { code: 'USD' } },
    });
    expect((await t.call('GET', `/invitations/${inv.code}`)).body).toEqual(inv);
    expect(await pageStatus(inv.url)).toBe('PENDING');
  });

  it('a claim makes it CLAIMED with the invitee and sends a signed INVITATION.CLAIMED', async () => {
    const inv = await invite();
    const before = hooks.deliveries.length;
    const answer = await t.call('POST', `/invitations/${inv.code}/claim`, { body: { inviteeUma: '$bob@uma.example' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'CLAIMED',
      inviteeUma: '$bob@uma.example',
      claimedAt: expect.any(String),
    });
    const [delivery] = (await hooks.waitFor(before + 1)).slice(before);
    expect(delivery!.body).toMatchObject({ type: 'INVITATION.CLAIMED', data: { code: inv.code, status: 'CLAIMED' } });
    expect(nodeVerifyWebhook(t.emu.webhookPublicKey, delivery!)).toBe(true);
    expect(await pageStatus(inv.url)).toBe('CLAIMED');
  });

  it.each([
    ['claimed', 'claim', 'INVITATION_ALREADY_CLAIMED'],
    ['claimed', 'cancel', 'INVITATION_ALREADY_CLAIMED'],
    ['cancelled', 'claim', 'INVITATION_CANCELLED'],
    ['cancelled', 'cancel', 'INVITATION_CANCELLED'],
    ['expired', 'claim', 'INVALID_INPUT'],
    ['expired', 'cancel', 'INVALID_INPUT'],
  ])('a %s invitation: %s is 400 %s', async (state, action, code) => {
    const inv = await invite({ expiresAt: new Date(t.emu.testing.now() + 60_000).toISOString() });
    const claim = { body: { inviteeUma: '$carol@uma.example' } };
    if (state === 'claimed') expect((await t.call('POST', `/invitations/${inv.code}/claim`, claim)).status).toBe(200);
    if (state === 'cancelled')
      expect((await t.call('POST', `/invitations/${inv.code}/cancel`, { body: {} })).status).toBe(200);
    if (state === 'expired') t.emu.testing.advanceClock(60_001);
    expect((await t.call('GET', `/invitations/${inv.code}`)).body.status).toBe(state.toUpperCase());
    const answer = await t.call(
      'POST',
      `/invitations/${inv.code}/${action}`,
      action === 'claim' ? claim : { body: {} },
    );
    expect(errorShape(answer)).toMatchObject({ status: 400, code });
    if (code === 'INVALID_INPUT') expect(fieldsOf(answer)).toEqual(['invitationCode']);
  });

  it('cancel moves PENDING to CANCELLED', async () => {
    const inv = await invite();
    const answer = await t.call('POST', `/invitations/${inv.code}/cancel`, { body: {} });
    expect(answer.body).toMatchObject({ code: inv.code, status: 'CANCELLED' });
    expect(await pageStatus(inv.url)).toBe('CANCELLED');
  });

  it.each([
    [{}, ['inviterUma']],
    [{ inviterUma: 'nobody' }, ['inviterUma']],
    [{ inviterUma: '$stranger@uma.example' }, ['inviterUma']],
    [
      { inviterUma: '$x@uma.example', amountToSend: 0, expiresAt: '2000-01-01T00:00:00Z' },
      ['inviterUma', 'amountToSend', 'expiresAt'],
    ],
  ])('create %j: 400 naming %j', async (body, fields) => {
    expect(fieldsOf(await t.call('POST', '/invitations', { body }))).toEqual(expect.arrayContaining(fields));
  });

  it('claim without inviteeUma, or by the inviter: 400 naming inviteeUma', async () => {
    const inv = await invite();
    expect(fieldsOf(await t.call('POST', `/invitations/${inv.code}/claim`, { body: {} }))).toEqual(['inviteeUma']);
    const self = await t.call('POST', `/invitations/${inv.code}/claim`, { body: { inviteeUma: inv.inviterUma } });
    expect(fieldsOf(self)).toEqual(['inviteeUma']);
  });

  it.each(['GET', 'claim', 'cancel'])('an unknown code: %s is 404 INVITATION_NOT_FOUND', async (action) => {
    const answer =
      action === 'GET'
        ? await t.call('GET', '/invitations/nosuchcode')
        : await t.call('POST', `/invitations/nosuchcode/${action}`, { body: { inviteeUma: '$a@uma.example' } });
    expect(errorShape(answer)).toMatchObject({ status: 404, code: 'INVITATION_NOT_FOUND' });
  });
});
