/**
 * Shared by the identity tests: real multipart uploads (encoded by Node's own fetch, not by us),
 * small files of each accepted kind, complete customers and owners, and the webhook deliveries
 * about one resource.
 */
import { request } from 'undici';
import { expect } from 'vitest';
import {
  basicAuth,
  delivered,
  nodeVerifyWebhook,
  type Answer,
  type Delivery,
  type Receiver,
  type TestEmulator,
} from '../support.js';

export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
export const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
export const GIF = Buffer.from('GIF89a\x01\x00\x01\x00');

export interface UploadFields {
  documentHolder?: string;
  documentType?: string;
  country?: string;
  documentNumber?: string;
  issuingAuthority?: string;
  side?: string;
  /** A file part; a string sends `file` as a text value instead. */
  file?: { bytes: Buffer; name: string; type?: string } | string;
}

/**
 * A form as multipart/form-data bytes and their content type, encoded by Node's fetch. Handing the
 * form itself to undici's request() stalled mid-body on Node 24 (the emulator answered 408): the
 * npm undici streams a FormData through the runtime's web streams and Blob.
 */
export async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}

/** POST /documents (or PUT /documents/{id}) as multipart/form-data, exactly as a client library encodes it. */
export function upload(t: TestEmulator, fields: UploadFields, replace?: string): Promise<Answer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.bytes], { type: value.type ?? 'application/octet-stream' }), value.name);
  }
  return sendDocumentForm(t, form, replace);
}

/** POST /documents (or PUT /documents/{id}) with any form, its parts text or files as the caller chose. */
export async function sendDocumentForm(t: TestEmulator, form: FormData, replace?: string): Promise<Answer> {
  const { body, contentType } = await multipart(form);
  const res = await request(`${t.emu.baseUrl}/documents${replace ? `/${replace}` : ''}`, {
    method: replace ? 'PUT' : 'POST',
    body,
    headers: { authorization: basicAuth(t.emu), 'content-type': contentType },
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined, headers: res.headers, text };
}

export const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };

/** Everything "Required for submission" except the identity document. */
export const COMPLETE_INDIVIDUAL = {
  birthDate: '1990-01-31',
  nationality: 'US',
  idType: 'SSN',
  identifier: '123-45-6789',
  address: ADDRESS,
};

export async function createIndividual(
  t: TestEmulator,
  fullName: string,
  extra: object = COMPLETE_INDIVIDUAL,
): Promise<Record<string, any>> {
  const answer = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName, ...extra } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

export async function uploadPassport(
  t: TestEmulator,
  holder: string,
  file = { bytes: JPEG, name: 'passport.jpg', type: 'image/jpeg' },
): Promise<Record<string, any>> {
  const answer = await upload(t, {
    documentHolder: holder,
    documentType: 'PASSPORT',
    country: 'US',
    documentNumber: 'P1234567',
    issuingAuthority: 'US Department of State',
    file,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

export const verify = (t: TestEmulator, customerId: string) =>
  t.call('POST', '/verifications', { body: { customerId } });

export const COMPLETE_BUSINESS_INFO = {
  legalName: 'Acme Corp',
  country: 'US',
  incorporatedOn: '2015-06-01',
  taxId: '12-3456789',
};

export async function createBusiness(
  t: TestEmulator,
  registrationNumber: string,
  info: object = COMPLETE_BUSINESS_INFO,
  address: object | null = ADDRESS,
): Promise<Record<string, any>> {
  const answer = await t.call('POST', '/customers', {
    body: { customerType: 'BUSINESS', businessInfo: { ...info, registrationNumber }, ...(address ? { address } : {}) },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

export function ownerBody(customerId: string, lastName: string): Record<string, unknown> {
  return {
    customerId,
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 60,
    personalInfo: {
      firstName: 'Olive',
      lastName,
      birthDate: '1980-05-05',
      nationality: 'US',
      address: ADDRESS,
      idType: 'SSN',
      identifier: '987-65-4321',
    },
  };
}

/** Signed, well-formed deliveries about one resource (data.id or data.customerId), in arrival order, once the queue is empty. */
export async function eventsAbout(t: TestEmulator, hooks: Receiver, id: string): Promise<Delivery[]> {
  await delivered(t);
  const mine = hooks.deliveries.filter((d) => d.body.data?.id === id || d.body.data?.customerId === id);
  for (const d of mine) {
    expect(nodeVerifyWebhook(t.emu.webhookPublicKey, d)).toBe(true);
    expect(d.body).toMatchObject({
      id: expect.stringMatching(/^Webhook:/),
      type: expect.any(String),
      timestamp: expect.any(String),
    });
  }
  return mine;
}
