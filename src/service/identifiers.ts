/**
 * Identifier shapes of the service (spec "Resources and their fields", widened by the public API
 * description for the resources the spec does not list). One copy for the CLI, which refuses a
 * malformed id before sending it, and for the emulator, which answers it with 400: so the CLI never
 * passes an id the server refuses, nor refuses one it takes.
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Resource prefixes: `<Kind>:<uuid>`. The first eight are the spec's; the rest come from api-facts.md. */
const ID_KINDS = [
  'Session',
  'AuthMethod',
  'InternalAccount',
  'Request',
  'Customer',
  'Card',
  'Webhook',
  'Quote',
  'Transaction',
  'ExternalAccount',
  'BeneficialOwner',
  'Document',
  'Verification',
  'Agent',
  'CardTransaction',
  'CardFundingSource',
  'DelegatedKey',
  'Token',
  'Stablecoin',
  'StablecoinOperation',
  'StablecoinProviderAccount',
  'PlatformConfig',
] as const;
export type IdKind = (typeof ID_KINDS)[number];

const patterns = new Map<IdKind, RegExp>(ID_KINDS.map((kind) => [kind, new RegExp(`^${kind}:${UUID}$`)]));

/** The pattern of one identifier kind, e.g. `idPattern('Customer')` matches `Customer:<uuid>`. */
export function idPattern(kind: IdKind): RegExp {
  return patterns.get(kind)!;
}

/**
 * Any identifier, whatever its kind (the kind captured): what a check that spans every resource
 * matches, so a kind added later (an emulator area's own) is covered without a list to update.
 */
export const ANY_ID_PATTERN = new RegExp(`^([A-Z][A-Za-z]+):${UUID}$`);

/** One pattern for several kinds, e.g. `idPatternOf(['InternalAccount', 'ExternalAccount'])`. */
export function idPatternOf(kinds: readonly IdKind[]): RegExp {
  return new RegExp(`^(?:${kinds.join('|')}):${UUID}$`);
}

/** UMA address: `$user@domain` (user: letters, digits, . _ + -; domain with a dot or localhost, optional port). */
export const UMA_ADDRESS_PATTERN =
  /^\$[A-Za-z0-9._+-]{1,64}@(?:localhost|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?::\d{1,5})?$/;
