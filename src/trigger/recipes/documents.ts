/**
 * `POST /documents` is a multipart form. The file is a minimal PDF written in ASCII, so the form
 * can travel as the client's text body byte for byte (the sandbox takes any JPEG, PNG or PDF).
 */
import { randomUUID } from 'node:crypto';
import { call, field, type TriggerContext } from '../context.js';

const SAMPLE_PDF = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
  'trailer << /Root 1 0 R >>',
  '%%EOF',
].join('\n');

/** The form's bytes and its Content-Type, for text fields plus one file part. */
export function multipartForm(
  fields: Record<string, string>,
  file: { name: string; type: string; content: string },
): { body: string; contentType: string } {
  const boundary = `svc-trigger-${randomUUID()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads a sample identity or business document for `holder`; returns its id. */
export async function uploadDocument(ctx: TriggerContext, holder: string, documentType: string): Promise<string> {
  ctx.progress(`Uploading a sample ${documentType} document`);
  const form = multipartForm(
    { documentHolder: holder, documentType, country: 'US', documentNumber: 'X1234567' },
    { name: `${documentType.toLowerCase()}.pdf`, type: 'application/pdf', content: SAMPLE_PDF },
  );
  const doc = await call(ctx, 'POST', '/documents', form.body, { 'Content-Type': form.contentType });
  return field(doc, 'id', 'POST /documents');
}
