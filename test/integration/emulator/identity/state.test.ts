import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEmulator } from '../support.js';
import { createBusiness, createIndividual, ownerBody, uploadPassport, verify } from './support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

describe('restart with --state (identity)', () => {
  it('keeps customers, documents, owners and verifications; a 001 customer finishes its review after the restart', async () => {
    const statePath = join(tempDir('svc-emu-identity-'), 'state.json');
    const first = await testEmulator({ statePath });
    const person = await createIndividual(first, 'Restart Me001', {});
    const passport = await uploadPassport(first, person.id);
    const missing = await verify(first, person.id);
    const business = await createBusiness(first, 'REG-999');
    const owner = (await first.call('POST', '/beneficial-owners', { body: ownerBody(business.id, 'Keeper002') })).body;
    const gone = await createIndividual(first, 'Deleted Before');
    expect((await first.call('DELETE', `/customers/${gone.id}`)).status).toBe(200);
    await first.close();

    const second = await testEmulator({ statePath });
    try {
      expect((await second.call('GET', `/customers/${person.id}`)).body).toEqual(person);
      expect((await second.call('GET', `/documents/${passport.id}`)).body).toEqual(passport);
      expect((await second.call('GET', `/verifications/${missing.body.id}`)).body).toEqual(missing.body);
      expect((await second.call('GET', `/beneficial-owners/${owner.id}`)).body).toEqual(owner);
      // A deletion survives the restart: still flagged, still 410.
      expect((await second.call('GET', `/customers/${gone.id}`)).body.isDeleted).toBe(true);
      expect((await second.call('DELETE', `/customers/${gone.id}`)).status).toBe(410);
      // The row decided before the restart (001) still decides; the passport uploaded before counts.
      await second.call('PATCH', `/customers/${person.id}`, {
        body: {
          customerType: 'INDIVIDUAL',
          birthDate: '1990-01-31',
          nationality: 'US',
          idType: 'SSN',
          identifier: '123-45-6789',
          address: { line1: '1 A St', city: 'B', postalCode: '1', country: 'US' },
        },
      });
      expect((await verify(second, person.id)).body).toMatchObject({
        verificationStatus: 'PENDING_MANUAL_REVIEW',
        errors: [],
      });
      expect((await verify(second, business.id)).body.verificationStatus).toBe('APPROVED');
      expect((await second.call('GET', `/beneficial-owners/${owner.id}`)).body.kycStatus).toBe('REJECTED');
    } finally {
      await second.close();
    }
  });
});
