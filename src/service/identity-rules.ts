/**
 * Identity facts that are not magic values but that the sandbox checks as production does: which
 * documents exist and in which groups, which files an upload may carry, what a business needs
 * before its verification moves past RESOLVE_ERRORS, and the enums of customers and owners.
 * From the spec ("Sandbox magic values", "Required for submission") and, where it is silent, the
 * service's public API description (../shared/spec/api-facts.md §1–§3).
 */
import { ACCEPTED_IDENTITY_DOCUMENT_TYPES } from './identity-magic.js';

/** DocumentType (api-facts appendix). */
export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;

/** Largest file `POST /documents` takes (api-facts: "max 10 MB"). */
export const DOCUMENT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The files the sandbox accepts ("any JPEG, PNG or PDF"), recognised by their first bytes rather
 * than by the name or declared type a client sends.
 */
export const DOCUMENT_FILE_KINDS = [
  { kind: 'JPEG', contentType: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { kind: 'PNG', contentType: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'PDF', contentType: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // "%PDF-"
] as const;

/** The kind of file these bytes start with, if it is one the sandbox accepts. */
export function documentFileKind(bytes: Uint8Array): (typeof DOCUMENT_FILE_KINDS)[number] | undefined {
  return DOCUMENT_FILE_KINDS.find((k) => k.magic.length <= bytes.length && k.magic.every((b, i) => bytes[i] === b));
}

/** The IdentificationType enum; an individual identifies with SSN or ITIN only (api-facts §1). */
export const ID_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] as const;
export const INDIVIDUAL_ID_TYPES = ['SSN', 'ITIN'] as const;
/** SSN and ITIN share the `###-##-####` shape (FieldConstraint format `us-ssn`). */
export const US_TAX_ID_PATTERN = /^\d{3}-\d{2}-\d{4}$/;

export const BENEFICIAL_OWNER_ROLES = [
  'UBO',
  'DIRECTOR',
  'COMPANY_OFFICER',
  'CONTROL_PERSON',
  'TRUSTEE',
  'GENERAL_PARTNER',
] as const;

export const ENTITY_TYPES = [
  'SOLE_PROPRIETORSHIP',
  'PARTNERSHIP',
  'LLC',
  'CORPORATION',
  'S_CORPORATION',
  'NON_PROFIT',
  'PUBLICLY_LISTED_COMPANY',
  'TRUST',
  'PRIVATE_FOUNDATION',
  'CHARITY',
  'OTHER',
] as const;

/**
 * A document category a verification asks for: the error type when none of the accepted types
 * was uploaded for the holder, and the types that satisfy it (api-facts §2 DocumentType groups).
 */
export interface RequiredDocument {
  missing:
    | 'MISSING_IDENTITY_DOCUMENT'
    | 'MISSING_LEGAL_PRESENCE_DOCUMENT'
    | 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT'
    | 'MISSING_PROOF_OF_ADDRESS_DOCUMENT';
  acceptedDocumentTypes: readonly DocumentType[];
}

export const IDENTITY_DOCUMENT: RequiredDocument = {
  missing: 'MISSING_IDENTITY_DOCUMENT',
  acceptedDocumentTypes: ACCEPTED_IDENTITY_DOCUMENT_TYPES,
};

/**
 * "Business documents" of the KYB checklist (formation, ownership/control, proof of address): one
 * document of each group must be uploaded for the business before a 001/003 business moves past
 * RESOLVE_ERRORS.
 */
export const BUSINESS_REQUIRED_DOCUMENTS: readonly RequiredDocument[] = [
  {
    missing: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
    acceptedDocumentTypes: [
      'CERTIFICATE_OF_INCORPORATION',
      'ARTICLES_OF_INCORPORATION',
      'ARTICLES_OF_ASSOCIATION',
      'STATE_REGISTRY_EXCERPT',
    ],
  },
  {
    missing: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
    acceptedDocumentTypes: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
  },
  {
    missing: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    acceptedDocumentTypes: [
      'UTILITY_BILL',
      'RENT_OR_LEASE_AGREEMENT',
      'ELECTRICITY_BILL',
      'BANK_STATEMENT',
      'TAX_RETURN',
    ],
  },
];

/**
 * "Complete business information": the fields BusinessInfo marks required (legalName, country,
 * incorporatedOn, taxId) plus the principal address of the KYB checklist. Each missing one is a
 * MISSING_FIELD error naming it in dot notation.
 */
export const BUSINESS_REQUIRED_FIELDS = [
  'businessInfo.legalName',
  'businessInfo.country',
  'businessInfo.incorporatedOn',
  'businessInfo.taxId',
  'address',
] as const;
