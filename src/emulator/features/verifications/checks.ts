/**
 * What a verification finds missing, one error per problem (spec "Required for submission"): a
 * MISSING_FIELD naming each absent field, a MISSING_*_DOCUMENT with the accepted types for each
 * document category with no upload, MISSING_BENEFICIAL_OWNER for a business without owners.
 */
import {
  BUSINESS_REQUIRED_DOCUMENTS,
  BUSINESS_REQUIRED_FIELDS,
  IDENTITY_DOCUMENT,
  INDIVIDUAL_REQUIRED_FIELDS,
  type RequiredDocument,
} from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { ownersOf } from '../beneficial-owners/owners.js';
import type { CustomerRec } from '../customers/customers.js';
import { documentsOf } from '../documents/documents.js';
import type { VerificationError } from './verifications.js';

/** The value at a dot path (`businessInfo.taxId`), undefined when absent or empty. */
function at(record: object, path: string): unknown {
  const value = path
    .split('.')
    .reduce<unknown>(
      (o, key) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined),
      record,
    );
  return value === '' ? undefined : value;
}

function missingFields(c: CustomerRec, fields: readonly string[]): VerificationError[] {
  return fields
    .filter((field) => at(c, field) === undefined)
    .map((field) => ({
      resourceId: c.id,
      type: 'MISSING_FIELD',
      field,
      reason: `${field} is required for verification; add it with PATCH /customers/${c.id}`,
    }));
}

function missingDocuments(
  emu: EmulatorContext,
  holder: string,
  required: readonly RequiredDocument[],
): VerificationError[] {
  return required
    .filter((r) => documentsOf(emu, holder, r.acceptedDocumentTypes).length === 0)
    .map((r) => ({
      resourceId: holder,
      type: r.missing,
      acceptedDocumentTypes: [...r.acceptedDocumentTypes],
      reason: `Upload one of ${r.acceptedDocumentTypes.join(', ')} with POST /documents (documentHolder ${holder})`,
    }));
}

export function individualProblems(emu: EmulatorContext, c: CustomerRec): VerificationError[] {
  return [...missingFields(c, INDIVIDUAL_REQUIRED_FIELDS), ...missingDocuments(emu, c.id, [IDENTITY_DOCUMENT])];
}

export function businessProblems(emu: EmulatorContext, c: CustomerRec): VerificationError[] {
  const problems = [
    ...missingFields(c, BUSINESS_REQUIRED_FIELDS),
    ...missingDocuments(emu, c.id, BUSINESS_REQUIRED_DOCUMENTS),
  ];
  if (ownersOf(emu, c.id).length === 0) {
    problems.push({
      resourceId: c.id,
      type: 'MISSING_BENEFICIAL_OWNER',
      reason: 'Add at least one beneficial owner with POST /beneficial-owners',
    });
  }
  return problems;
}

/** The latest identity document of an individual (the one a quality check judges). */
export function latestIdentityDocument(emu: EmulatorContext, c: CustomerRec): string | undefined {
  return documentsOf(emu, c.id, IDENTITY_DOCUMENT.acceptedDocumentTypes).at(-1)?.id;
}
