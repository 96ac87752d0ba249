/**
 * Uploaded documents. Only the metadata is kept (the state file is JSON and the sandbox judges a
 * document by its holder and type, never by its pixels); the bytes are checked and dropped.
 */
import type { DocumentType } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';

export interface DocumentRec {
  id: string;
  /** `Customer:<uuid>` or `BeneficialOwner:<uuid>`. */
  documentHolder: string;
  documentType: DocumentType;
  side?: 'FRONT' | 'BACK';
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
  fileName: string;
  /** Not rendered: when a verification first looked at it (DELETE is 409 from then on). */
  submittedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const documents = durableTable<DocumentRec>('documents', {
  id: 'string',
  documentHolder: 'string',
  documentType: 'string',
  side: 'string?',
  country: 'string',
  documentNumber: 'string?',
  issuingAuthority: 'string?',
  fileName: 'string',
  submittedAt: 'string?',
  createdAt: 'string',
  updatedAt: 'string',
});
export const byHolder = tableIndex<DocumentRec>((d) => d.documentHolder);

export function renderDocument(d: DocumentRec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(d).filter(([k, v]) => v !== undefined && k !== 'submittedAt'));
}

/** A verification of these holders has looked at their documents. */
export function markSubmitted(emu: EmulatorContext, holders: readonly string[]): void {
  const waiting = holders
    .flatMap((holder) => emu.table(documents).where(byHolder, holder))
    .filter((d) => !d.submittedAt);
  for (const d of waiting) {
    d.submittedAt = emu.iso();
    emu.table(documents).set(d.id, d);
  }
}

/** The holder's documents of the given types, newest last. */
export function documentsOf(emu: EmulatorContext, holder: string, types: readonly string[]): DocumentRec[] {
  return emu
    .table(documents)
    .where(byHolder, holder)
    .filter((d) => types.includes(d.documentType));
}
