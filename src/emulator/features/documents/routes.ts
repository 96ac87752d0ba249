/**
 * POST /documents (multipart: documentHolder, documentType, country, documentNumber,
 * issuingAuthority, side, file), GET /documents?documentHolder= (paged), GET, PUT (replace the file
 * and metadata, e.g. after a rejection) and DELETE /documents/{id} (409 once submitted for
 * verification). The form and its checks are in form.ts.
 */
import { callerSees, checkAgentIds } from '../../kernel/agent-scope.js';
import { conflict, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Route } from '../../kernel/router.js';
import { owners } from '../beneficial-owners/owners.js';
import { liveCustomerOr4xx } from '../customers/customers.js';
import { byHolder, documents, renderDocument, type DocumentRec } from './documents.js';
import { FORM_MAX_BYTES, HOLDER, readDocumentForm } from './form.js';
import { newId } from '../../kernel/ids.js';

/** 404 unless the holder exists (customers: USER_NOT_FOUND). */
function checkHolder(emu: EmulatorContext, holder: string): void {
  if (holder.startsWith('Customer:')) liveCustomerOr4xx(emu, holder, { field: 'documentHolder' });
  else if (!emu.table(owners).has(holder)) throw notFound('Beneficial owner', holder);
}

function documentOr404(emu: EmulatorContext, id: string): DocumentRec {
  const doc = emu.table(documents).get(id);
  if (!doc) throw notFound('Document', id);
  return doc;
}

const upload: Route = {
  method: 'POST',
  path: '/documents',
  permission: 'MANAGE',
  maxBodyBytes: FORM_MAX_BYTES,
  async handler(req, emu) {
    const { fields, holder } = await readDocumentForm(req, true);
    // The kernel reads ids in JSON bodies only; this one came in a form.
    checkAgentIds(emu, req, [holder!]);
    checkHolder(emu, holder!);
    const now = emu.iso();
    const doc: DocumentRec = {
      id: newId('Document'),
      documentHolder: holder!,
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
    emu.table(documents).set(doc.id, doc);
    return { status: 201, body: renderDocument(doc) };
  },
};

const replace: Route = {
  method: 'PUT',
  path: '/documents/:id(Document)',
  permission: 'MANAGE',
  maxBodyBytes: FORM_MAX_BYTES,
  async handler(req, emu) {
    const old = documentOr404(emu, req.params.id!);
    const { fields } = await readDocumentForm(req, false);
    // New content has not been submitted for verification yet.
    const doc: DocumentRec = {
      id: old.id,
      documentHolder: old.documentHolder,
      ...fields,
      createdAt: old.createdAt,
      updatedAt: emu.iso(),
    };
    emu.table(documents).set(doc.id, doc);
    return { status: 200, body: renderDocument(doc) };
  },
};

const remove: Route = {
  method: 'DELETE',
  path: '/documents/:id(Document)',
  permission: 'MANAGE',
  handler(req, emu) {
    const doc = documentOr404(emu, req.params.id!);
    if (doc.submittedAt)
      throw conflict(
        'CONFLICT',
        `Document ${doc.id} was submitted for verification at ${doc.submittedAt}; replace it with PUT instead`,
      );
    emu.table(documents).delete(doc.id);
    return { status: 204 };
  },
};

const list: Route = {
  method: 'GET',
  path: '/documents',
  permission: 'VIEW',
  handler(req, emu) {
    const f = new Fields(Object.fromEntries(req.query));
    const holder = f.string('documentHolder', { pattern: HOLDER });
    const paging = readPage(f);
    f.done();
    const sees = callerSees(emu, req);
    const candidates = holder ? emu.table(documents).where(byHolder, holder) : [...emu.table(documents).values()];
    const picked = candidates.filter(sees);
    return { status: 200, body: pageOf(picked.map(renderDocument), paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/documents/:id(Document)',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: renderDocument(documentOr404(emu, req.params.id!)) }),
};

export const documentRoutes: Route[] = [upload, list, get, replace, remove];
