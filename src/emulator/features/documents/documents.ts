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
  createdAt: string;
  updatedAt: string;
}

export const documents = durableTable<DocumentRec>('documents');

export function renderDocument(d: DocumentRec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
}

/** The holder's documents of the given types, newest last. */
export function documentsOf(emu: EmulatorContext, holder: string, types: readonly string[]): DocumentRec[] {
  return emu.table(documents).filter((d) => d.documentHolder === holder && types.includes(d.documentType));
}
