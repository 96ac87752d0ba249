/**
 * The document form of `POST /documents` and `PUT /documents/{id}`. The description's rules on its
 * parts (documentHolder, documentType, country and the file required; the document types and sides;
 * ISO countries) are the schema check's, before the handler (kernel/request-check/form.ts). What is
 * left is the emulator's: the holder's id kind, bounds on stored text, text parts sent as text, and
 * the file, sent as a file part (its name is kept), a JPEG, PNG or PDF by its first bytes and
 * at most DOCUMENT_MAX_FILE_BYTES (else 400 naming `file`). Its name is kept as the document's
 * `fileName`, so it is limited like every stored text (400 naming fileName); a name with `../` or
 * NUL stays a harmless string: it is never used as a path.
 */
import {
  DOCUMENT_FILE_KINDS,
  DOCUMENT_MAX_FILE_BYTES,
  documentFileKind,
  idPattern,
  type DocumentType,
} from '../../../service/index.js';
import { tooLarge } from '../../kernel/body.js';
import { Fields } from '../../kernel/fields.js';
import type { Req } from '../../kernel/router.js';
import { defined } from '../customers/fields.js';
import type { DocumentRec } from './documents.js';
import { readForm } from '../../kernel/multipart.js';

/** Room for the text parts and part headers around a file of the largest size. */
export const FORM_MAX_BYTES = DOCUMENT_MAX_FILE_BYTES + 64 * 1024;
export const HOLDER = new RegExp(`${idPattern('Customer').source}|${idPattern('BeneficialOwner').source}`);
/** A file name as file systems allow it. */
const FILE_NAME_MAX_LENGTH = 255;
const KINDS = DOCUMENT_FILE_KINDS.map((k) => k.kind).join(', ');

export type DocumentFields = Pick<
  DocumentRec,
  'documentType' | 'side' | 'country' | 'documentNumber' | 'issuingAuthority' | 'fileName'
>;

async function checkFile(f: Fields, file: File | undefined): Promise<void> {
  // The schema check required the part; sent as text, it has no name to keep.
  if (!file) {
    f.add('file', 'file must be a file part (with a filename), not a text value');
    return;
  }
  if (file.size > DOCUMENT_MAX_FILE_BYTES) throw tooLarge(DOCUMENT_MAX_FILE_BYTES, 'file', 'The file (10 MB at most)');
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  if (file.name.length > FILE_NAME_MAX_LENGTH)
    f.add('fileName', `the file's name must be at most ${FILE_NAME_MAX_LENGTH} characters (got ${file.name.length})`, {
      maxLength: FILE_NAME_MAX_LENGTH,
    });
  if (file.size === 0) f.add('file', 'file is empty');
  else if (!documentFileKind(head))
    f.add('file', `file must be a ${KINDS} document (judged by its first bytes, not its name or type)`);
}

/**
 * Reads and checks the form; `withHolder` for an upload (a replacement keeps its holder, and
 * ignores a documentHolder part). Throws the 400; returns the fields and the holder.
 */
export async function readDocumentForm(
  req: Req,
  withHolder: boolean,
): Promise<{ fields: DocumentFields; holder?: string }> {
  const form = await readForm(req);
  const f = new Fields(form.text);
  for (const name of Object.keys(form.files))
    if (name !== 'file') f.add(name, `${name} must be a text value, not a file`);
  const holder = withHolder ? f.string('documentHolder', { pattern: HOLDER }) : undefined;
  const documentType = f.string('documentType') as DocumentType;
  const side = f.string('side') as DocumentRec['side'];
  const country = f.string('country')!;
  const documentNumber = f.string('documentNumber', { minLength: 1, maxLength: 64 });
  const issuingAuthority = f.string('issuingAuthority', { minLength: 1, maxLength: 200 });
  const file = form.files.file;
  await checkFile(f, file);
  f.done();
  const fields: DocumentFields = {
    documentType,
    ...defined({ side, documentNumber, issuingAuthority }),
    country,
    fileName: file!.name || 'document',
  };
  return holder === undefined ? { fields } : { fields, holder };
}
