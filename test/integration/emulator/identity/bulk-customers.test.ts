import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { multipartForm } from '../../../../src/trigger/recipes/documents.js';
import { STILL, errorShape, nodeVerifyWebhook, testEmulator, useEmulatorWithWebhooks } from '../support.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const { t, hooks } = useEmulatorWithWebhooks(STILL);

const HEADER =
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName';
let n = 0;
/** A good individual row with unique ids, its cells overridden by `cells` (column → value). */
function row(cells: Record<string, string> = {}): string {
  n++;
  const base: Record<string, string> = {
    umaAddress: `$bulk.${n}.${Date.now()}@uma.example`,
    platformCustomerId: `bulk-${n}-${Date.now()}`,
    customerType: 'INDIVIDUAL',
    fullName: 'Jane Doe',
    birthDate: '1990-01-15',
    addressLine1: '123 Main St',
    city: 'San Francisco',
    state: 'CA',
    postalCode: '94105',
    country: 'US',
    businessLegalName: '',
  };
  return HEADER.split(',')
    .map((c) => cells[c] ?? base[c])
    .join(',');
}

async function upload(csv: string): Promise<string> {
  const form = multipartForm({}, { name: 'customers.csv', type: 'text/csv', content: csv });
  const answer = await t.call('POST', '/customers/bulk/csv', {
    body: form.body,
    headers: { 'content-type': form.contentType },
  });
  expect(answer.status, answer.text).toBe(202);
  expect(answer.body).toEqual({ jobId: expect.stringMatching(/^Job:/), status: 'PENDING' });
  return answer.body.jobId;
}

const job = async (id: string) => (await t.call('GET', `/customers/bulk/jobs/${id}`)).body;

/** Moves the clock one import step at a time until the job is done; returns it. */
async function finished(id: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const j = await job(id);
    if (j.status === 'COMPLETED' || j.status === 'FAILED') return j;
    t.emu.testing.advanceClock(1000);
  }
  throw new Error('job never finished');
}

async function webhookFor(id: string): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const found = hooks.deliveries.find((d) => d.body.data?.id === id);
    if (found) {
      expect(nodeVerifyWebhook(t.emu.webhookPublicKey, found)).toBe(true);
      return found.body;
    }
    await hooks.waitFor(hooks.deliveries.length + 1, 100).catch(() => undefined);
  }
  throw new Error(`no webhook for ${id}`);
}

describe('bulk customer upload', () => {
  it("the description's example: one customer made, the business row without businessLegalName fails", async () => {
    const csv = [
      'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName',
      `john.doe.${Date.now()}@uma.domain.com,customer123,INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US`,
      `acme.${Date.now()}@uma.domain.com,biz456,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US`,
    ].join('\n');
    const id = await upload(csv);
    expect(await job(id)).toMatchObject({ status: 'PENDING', progress: { total: 2, processed: 0 } });
    const done = await finished(id);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      progress: { total: 2, processed: 2, successful: 1, failed: 1 },
      completedAt: expect.any(String),
      errors: [
        { correlationId: 'biz456', code: 'INVALID_INPUT', details: { errors: [{ field: 'businessLegalName' }] } },
      ],
    });
    const made = await t.call('GET', '/customers?platformCustomerId=customer123');
    expect(made.body.data).toEqual([
      expect.objectContaining({
        customerType: 'INDIVIDUAL',
        fullName: 'John Doe',
        umaAddress: expect.stringMatching(/^\$john\.doe\./),
        address: expect.objectContaining({ line1: '123 Main St', country: 'US' }),
      }),
    ]);
    expect(await webhookFor(id)).toMatchObject({ type: 'BULK_UPLOAD.COMPLETED', data: { status: 'COMPLETED' } });
  });

  it('imports 100 rows a second of emulator time: PROCESSING in between', async () => {
    const id = await upload([HEADER, ...Array.from({ length: 250 }, () => row())].join('\r\n'));
    t.emu.testing.advanceClock(1000);
    expect(await job(id)).toMatchObject({ status: 'PROCESSING', progress: { total: 250, processed: 100 } });
    t.emu.testing.advanceClock(1000);
    expect((await job(id)).progress.processed).toBe(200);
    t.emu.testing.advanceClock(1000);
    expect(await job(id)).toMatchObject({ status: 'COMPLETED', progress: { processed: 250, successful: 250 } });
  });

  it('a quoted field keeps its comma; a business row makes a business customer', async () => {
    const pid = `quoted-${Date.now()}`;
    const id = await upload(
      [
        HEADER,
        row({ platformCustomerId: pid, fullName: '"Doe, Jane ""JD"""' }),
        row({ customerType: 'BUSINESS', fullName: '', birthDate: '', businessLegalName: 'Acme Inc' }),
      ].join('\n'),
    );
    expect(await finished(id)).toMatchObject({ progress: { successful: 2, failed: 0 } });
    const made = await t.call('GET', `/customers?platformCustomerId=${pid}`);
    expect(made.body.data[0].fullName).toBe('Doe, Jane "JD"');
  });

  it.each([
    ['no umaAddress', { umaAddress: '' }, ['umaAddress']],
    ['a bad umaAddress', { umaAddress: 'not an address' }, ['umaAddress']],
    ['an unknown customerType', { customerType: 'ROBOT' }, ['customerType']],
    ['an individual without fullName and birthDate', { fullName: '', birthDate: '' }, ['fullName', 'birthDate']],
    ['a bad birthDate', { birthDate: '1990-02-30' }, ['birthDate']],
    [
      'no address',
      { addressLine1: '', city: '', state: '', postalCode: '' },
      ['addressLine1', 'city', 'state', 'postalCode'],
    ],
    ['a bad country', { country: 'USA' }, ['country']],
    ['a business without businessLegalName', { customerType: 'BUSINESS' }, ['businessLegalName']],
  ])('a row with %s fails, naming %j', async (_what, cells, fields) => {
    const id = await upload([HEADER, row(cells), row()].join('\n'));
    const done = await finished(id);
    expect(done).toMatchObject({ status: 'COMPLETED', progress: { successful: 1, failed: 1 } });
    expect(done.errors[0].details.errors.map((e: any) => e.field)).toEqual(fields);
  });

  it('a platformCustomerId or umaAddress already taken (in the file too) fails that row', async () => {
    const first = row();
    const [uma, pid] = first.split(',');
    const id = await upload(
      [HEADER, first, row({ platformCustomerId: pid! }), row({ umaAddress: uma!.toUpperCase() })].join('\n'),
    );
    const done = await finished(id);
    expect(done.progress).toMatchObject({ successful: 1, failed: 2 });
    expect(done.errors.map((e: any) => e.code)).toEqual(['CONFLICT', 'UMA_ADDRESS_EXISTS']);
  });

  it.each([
    ['a JSON body', { body: { file: 'x' } }],
    ['a form without a file part', multipartBody('other', 'x')],
    ['a header without customerType', csvBody('umaAddress,platformCustomerId\n$a@uma.example,p1')],
    ['a header and no rows', csvBody(HEADER)],
    ['an unclosed quote', csvBody(`${HEADER}\n"$a@uma.example,p1`)],
  ])('%s: 202, then the job FAILS naming file', async (_what, options) => {
    const answer = await t.call('POST', '/customers/bulk/csv', options);
    expect(answer.status, answer.text).toBe(202);
    const done = await finished(answer.body.jobId);
    expect(done).toMatchObject({
      status: 'FAILED',
      progress: { processed: 0 },
      errors: [{ correlationId: 'file', code: 'INVALID_INPUT', details: { errors: [{ field: 'file' }] } }],
    });
    expect(await webhookFor(done.id)).toMatchObject({ type: 'BULK_UPLOAD.FAILED', data: { status: 'FAILED' } });
  });

  it('an unknown job is 404 BULK_UPLOAD_JOB_NOT_FOUND', async () => {
    const answer = await t.call('GET', '/customers/bulk/jobs/Job:00000000-0000-0000-0000-000000000000');
    expect(errorShape(answer)).toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
  });
});

describe('a restart with --state', () => {
  it('a job stopped halfway goes on where it stopped', async () => {
    const statePath = join(tempDir('svc-emu-bulk-'), 'state.json');
    const first = await testEmulator({ ...STILL, statePath });
    const form = multipartForm(
      {},
      { name: 'c.csv', type: 'text/csv', content: [HEADER, ...Array.from({ length: 150 }, () => row())].join('\n') },
    );
    const accepted = await first.call('POST', '/customers/bulk/csv', {
      body: form.body,
      headers: { 'content-type': form.contentType },
    });
    first.emu.testing.advanceClock(1000);
    expect((await first.call('GET', `/customers/bulk/jobs/${accepted.body.jobId}`)).body.progress.processed).toBe(100);
    await first.close();
    const second = await testEmulator({ ...STILL, statePath });
    try {
      second.emu.testing.advanceClock(1000);
      const done = (await second.call('GET', `/customers/bulk/jobs/${accepted.body.jobId}`)).body;
      expect(done).toMatchObject({ status: 'COMPLETED', progress: { total: 150, processed: 150, successful: 150 } });
    } finally {
      await second.close();
    }
  });
});

function multipartBody(name: string, value: string) {
  const boundary = 'b0undary';
  return {
    body: `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function csvBody(csv: string) {
  const form = multipartForm({}, { name: 'c.csv', type: 'text/csv', content: csv });
  return { body: form.body, headers: { 'content-type': form.contentType } };
}
