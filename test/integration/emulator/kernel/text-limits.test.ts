/**
 * Every free-text field has a length limit, answered with the spec's 400
 * INVALID_INPUT naming the field (and its maxLength); a document's file name is one of them (it is
 * stored as fileName). A name with `../` or NUL stays a harmless string, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_MAX_LENGTH } from '../../../../src/emulator/kernel/fields.js';
import { createIndividual, JPEG, upload } from '../identity/support.js';
import { errorShape, testEmulator, type TestEmulator } from '../support.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await testEmulator();
});
afterAll(() => t.close());

function fieldError(answer: Awaited<ReturnType<TestEmulator['call']>>, field: string) {
  const e = errorShape(answer);
  expect(e).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  return (e.details.errors as Array<{ field: string; message: string; constraint?: { maxLength?: number } }>).find(
    (x) => x.field === field,
  );
}

describe('free text is limited', () => {
  it('a document whose file name is longer than 255 characters: 400 naming fileName; nothing stored', async () => {
    const customer = await createIndividual(t, 'Long Name');
    const before = (await t.call('GET', `/documents?documentHolder=${customer.id}`)).body.data.length;
    const answer = await upload(t, {
      documentHolder: customer.id,
      documentType: 'PASSPORT',
      country: 'US',
      file: { bytes: JPEG, name: `${'n'.repeat(100_000)}.jpg`, type: 'image/jpeg' },
    });
    expect(answer.status).toBe(400);
    const error = fieldError(answer, 'fileName');
    expect(error).toMatchObject({ constraint: { maxLength: 255 } });
    expect(error!.message).toContain('at most 255 characters (got 100004)');
    expect((await t.call('GET', `/documents?documentHolder=${customer.id}`)).body.data).toHaveLength(before);
  });

  it('a name with ../ and NUL is kept as a plain string', async () => {
    const customer = await createIndividual(t, 'Odd Name');
    const name = '../../etc/passwd\u0000.jpg';
    const answer = await upload(t, {
      documentHolder: customer.id,
      documentType: 'PASSPORT',
      country: 'US',
      file: { bytes: JPEG, name, type: 'image/jpeg' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.fileName).toBe(name);
  });

  it(`a field without a limit of its own gets ${TEXT_MAX_LENGTH} characters`, async () => {
    const answer = await t.call('POST', '/sandbox/uma/receive', {
      body: {
        senderUmaAddress: `$${'a'.repeat(5000)}@example.com`,
        receiverUmaAddress: '$x@emulator.svc.test',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 100,
      },
    });
    expect(answer.status).toBe(400);
    expect(fieldError(answer, 'senderUmaAddress')).toMatchObject({
      constraint: { maxLength: TEXT_MAX_LENGTH },
      message: `senderUmaAddress must be at most ${TEXT_MAX_LENGTH} characters`,
    });
  });
});
