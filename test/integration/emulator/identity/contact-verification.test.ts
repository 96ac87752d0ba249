/**
 * Contact verification: a customer of a region that requires it (the EEA) starts with both channels
 * PENDING and cannot begin KYC until each is confirmed with the sandbox code; any other customer is
 * 409 on every operation, as the spec's condition mapping 4 says.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_SCA_CODE } from '../../../../src/service/index.js';
import { errorShape, useLoggedInEmulator } from '../support.js';
import { randomToken } from '../../../helpers/random-data.js';

const { t } = useLoggedInEmulator();

async function euCustomer(fullName = 'Eva Europa 001'): Promise<Record<string, any>> {
  const answer = await t.call('POST', '/customers', {
    body: {
      customerType: 'INDIVIDUAL',
      fullName,
      region: 'DE',
      email: `${randomToken()}@example.de`,
      phoneNumber: '+4915112345678',
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe('contact verification', () => {
  it('an EEA customer must give email and phone at creation (400 naming both)', async () => {
    const answer = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', region: 'FR' } });
    expect(answer.status).toBe(400);
    expect(errorShape(answer).details.errors.map((e: any) => e.field)).toEqual(['email', 'phoneNumber']);
  });

  it('starts PENDING on both channels; send then confirm makes each VERIFIED and answers the customer', async () => {
    const c = await euCustomer();
    expect(c.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    expect((await t.call('POST', `/customers/${c.id}/verify-email`)).status).toBe(204);
    const email = await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: SANDBOX_SCA_CODE } });
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({ id: c.id, contactVerification: { email: 'VERIFIED', phone: 'PENDING' } });
    expect((await t.call('POST', `/customers/${c.id}/verify-phone`)).status).toBe(204);
    const phone = await t.call('POST', `/customers/${c.id}/verify-phone/confirm`, { body: { code: SANDBOX_SCA_CODE } });
    expect(phone.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    expect((await t.call('GET', `/customers/${c.id}`)).body.contactVerification).toEqual({
      email: 'VERIFIED',
      phone: 'VERIFIED',
    });
  });

  it.each([
    ['no code sent yet', false, SANDBOX_SCA_CODE, 0, /no code was sent/],
    ['a wrong code', true, '654321', 0, /not the one sent/],
    ['a lapsed code (10 minutes of emulator time)', true, SANDBOX_SCA_CODE, 10 * 60_000, /expired/],
  ])('confirm with %s: 400 INVALID_INPUT naming code', async (_name, sendFirst, code, wait, message) => {
    const c = await euCustomer();
    if (sendFirst) await t.call('POST', `/customers/${c.id}/verify-phone`);
    if (wait) await t.emu.testing.advanceClock(wait);
    const answer = await t.call('POST', `/customers/${c.id}/verify-phone/confirm`, { body: { code } });
    expect(answer.status).toBe(400);
    const e = errorShape(answer);
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.details.errors[0]).toMatchObject({ field: 'code', message: expect.stringMatching(message) });
  });

  it.each([
    ['verify-email', {}],
    ['verify-email/confirm', { code: SANDBOX_SCA_CODE }],
    ['verify-phone', {}],
    ['verify-phone/confirm', { code: SANDBOX_SCA_CODE }],
  ])('POST …/%s: 409 CONFLICT for a customer that does not need it', async (path, body) => {
    const answer = await t.call('POST', `/customers/${t.emu.fixtures.customerId}/${path}`, { body });
    expect(answer.status).toBe(409);
    expect(errorShape(answer).code).toBe('CONFLICT');
  });

  it('409 once a channel is verified; a changed email is PENDING again', async () => {
    const c = await euCustomer();
    await t.call('POST', `/customers/${c.id}/verify-email`);
    await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: SANDBOX_SCA_CODE } });
    expect((await t.call('POST', `/customers/${c.id}/verify-email`)).status).toBe(409);
    const patched = await t.call('PATCH', `/customers/${c.id}`, {
      body: { customerType: 'INDIVIDUAL', email: 'moved@example.de' },
    });
    expect(patched.body.contactVerification.email).toBe('PENDING');
    expect((await t.call('POST', `/customers/${c.id}/verify-email`)).status).toBe(204);
  });

  it('404 USER_NOT_FOUND for an unknown customer', async () => {
    const answer = await t.call('POST', '/customers/Customer:00000000-0000-0000-0000-000000000000/verify-email');
    expect(answer.status).toBe(404);
    expect(errorShape(answer).code).toBe('USER_NOT_FOUND');
  });

  it('KYC waits for both channels: POST /verifications is 400 naming customerId until then', async () => {
    const c = await euCustomer('Eva Europa 003');
    const early = await t.call('POST', '/verifications', { body: { customerId: c.id } });
    expect(early.status).toBe(400);
    expect(errorShape(early).details.errors[0]).toMatchObject({ field: 'customerId' });
    for (const channel of ['email', 'phone']) {
      await t.call('POST', `/customers/${c.id}/verify-${channel}`);
      await t.call('POST', `/customers/${c.id}/verify-${channel}/confirm`, { body: { code: SANDBOX_SCA_CODE } });
    }
    const after = await t.call('POST', '/verifications', { body: { customerId: c.id } });
    expect(after.status, after.text).toBe(200);
  });
});
