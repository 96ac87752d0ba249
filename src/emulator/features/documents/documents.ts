/**
 * Uploaded documents. Only the metadata is kept (the state file is JSON and the sandbox judges a
 * document by its holder and type, never by its pixels); the bytes are checked and dropped.
 */
import type { DocumentType } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { durableTable } from '../../kernel/tables.js';

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

export const documents = durableTable<DocumentRec>('documents');

export function renderDocument(d: DocumentRec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(d).filter(([k, v]) => v !== undefined && k !== 'submittedAt'));
}

/** A verification of these holders has looked at their documents. */
export function markSubmitted(emu: EmulatorContext, holders: readonly string[]): void {
  for (const d of emu.table(documents).filter((d) => holders.includes(d.documentHolder) && !d.submittedAt)) {
    d.submittedAt = emu.iso();
    emu.table(documents).set(d.id, d);
  }
}

/** The holder's documents of the given types, newest last. */
export function documentsOf(emu: EmulatorContext, holder: string, types: readonly string[]): DocumentRec[] {
  return emu.table(documents).filter((d) => d.documentHolder === holder && types.includes(d.documentType));
}
