/**
 * POST /documents (multipart form: documentHolder, documentType, country, documentNumber,
 * issuingAuthority, side, file), GET /documents?documentHolder= (paged), GET /documents/{id}.
 * The file must be a JPEG, PNG or PDF by its first bytes (else 400 naming `file`) and at most
 * DOCUMENT_MAX_FILE_BYTES (else 413, as is a body too large to hold such a file).
 */
import { randomUUID } from 'node:crypto';
import {
  DOCUMENT_FILE_KINDS, DOCUMENT_MAX_FILE_BYTES, DOCUMENT_SIDES, DOCUMENT_TYPES, documentFileKind, idPattern, type DocumentType,
} from '../../../service/index.js';
import { HttpError, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPaging } from '../../kernel/paging.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Route } from '../../kernel/router.js';
import { owners } from '../beneficial-owners/owners.js';
import { customerOr404 } from '../customers/routes.js';
import { countryRules, defined } from '../customers/fields.js';
import { documents, renderDocument, type DocumentRec } from './documents.js';
import { readForm } from './multipart.js';

/** Room for the text parts and part headers around a file of the largest size. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const HOLDER = new RegExp(`${idPattern('Customer').source}|${idPattern('BeneficialOwner').source}`);
const KINDS = DOCUMENT_FILE_KINDS.map((k) => k.kind).join(', ');

const tooLarge = () => new HttpError(413, 'PAYLOAD_TOO_LARGE', `file exceeds ${DOCUMENT_MAX_FILE_BYTES} bytes (10 MB)`);

/** 404 unless the holder exists (customers: USER_NOT_FOUND). */
function checkHolder(emu: EmulatorContext, holder: string): void {
  if (holder.startsWith('Customer:')) customerOr404(emu, holder);
  else if (!emu.table(owners).has(holder)) throw notFound('Beneficial owner', holder);
}

/** The file part: present, a file, not empty, of an accepted kind. Returns its bytes' kind. */
async function checkFile(f: Fields, file: File | undefined, sentAsText: boolean): Promise<void> {
  if (!file) {
    f.add('file', sentAsText ? 'file must be a file part (with a filename), not a text value' : 'file is required');
    return;
  }
  if (file.size > DOCUMENT_MAX_FILE_BYTES) throw tooLarge();
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  if (file.size === 0) f.add('file', 'file is empty');
  else if (!documentFileKind(head)) f.add('file', `file must be a ${KINDS} document (judged by its first bytes, not its name or type)`);
}

const upload: Route = {
  method: 'POST',
  path: '/documents',
  maxBodyBytes: DOCUMENT_MAX_FILE_BYTES + FORM_OVERHEAD_BYTES,
  async handler(req, emu) {
    const form = await readForm(req);
    const f = new Fields(form.text);
    for (const name of Object.keys(form.files)) if (name !== 'file') f.add(name, `${name} must be a text value, not a file`);
    const holder = f.string('documentHolder', { required: true, pattern: HOLDER });
    const documentType = f.string('documentType', { required: true, enum: DOCUMENT_TYPES }) as DocumentType | undefined;
    const side = f.string('side', { enum: DOCUMENT_SIDES }) as DocumentRec['side'];
    const country = f.string('country', { required: true, ...countryRules });
    const documentNumber = f.string('documentNumber', { minLength: 1, maxLength: 64 });
    const issuingAuthority = f.string('issuingAuthority', { minLength: 1, maxLength: 200 });
    const file = form.files.file;
    await checkFile(f, file, form.text.file !== undefined);
    f.done();
    checkHolder(emu, holder!);
    const now = emu.iso();
    const doc: DocumentRec = {
      id: `Document:${randomUUID()}`,
      documentHolder: holder!,
      documentType: documentType!,
      ...defined({ side, documentNumber, issuingAuthority }),
      country: country!,
      fileName: file!.name || 'document',
      createdAt: now,
      updatedAt: now,
    };
    emu.table(documents).set(doc.id, doc);
    return { status: 201, body: renderDocument(doc) };
  },
};

const list: Route = {
  method: 'GET',
  path: '/documents',
  handler(req, emu) {
    const f = new Fields(Object.fromEntries(req.query));
    const holder = f.string('documentHolder', { pattern: HOLDER });
    const paging = readPaging(f);
    f.done();
    const picked = emu.table(documents).filter((d) => !holder || d.documentHolder === holder);
    return { status: 200, body: pageOf(picked, paging, renderDocument) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/documents/:id(Document)',
  handler(req, emu) {
    const doc = emu.table(documents).get(req.params.id!);
    if (!doc) throw notFound('Document', req.params.id!);
    return { status: 200, body: renderDocument(doc) };
  },
};

export const documentRoutes: Route[] = [upload, list, get];
