/**
 * A 404 for a path a server has no route for. The description's 404 codes name only records
 * (`REFERENCE_NOT_FOUND` is the generic one), so the emulator answers an unknown route with that code
 * and marks it in `details`; the trigger reads the mark to say "this service does not offer the
 * endpoint" rather than "this record is unknown". Another server's bare `NOT_FOUND` counts too.
 */
export const NO_ROUTE_DETAILS = { route: 'UNKNOWN' } as const;

/** Whether a 404 says the server has no such route (rather than no such record). */
export function isNoRoute(code: string, details: Record<string, unknown> | undefined): boolean {
  return code === 'NOT_FOUND' || details?.route === NO_ROUTE_DETAILS.route;
}

/**
 * Operations the service's API description has removed, by `METHOD /path` (a path parameter as
 * `{}`), with the operation that does the job now: a server answers them 404 naming it. The
 * official TypeScript SDK (0.7.0) still has each of these methods.
 */
const REMOVED_OPERATIONS: Readonly<Record<string, string>> = {
  'GET /customers/kyc-link': 'POST /customers/{customerId}/kyc-link',
  'POST /webhooks/test': 'POST /sandbox/webhooks/test',
  // The quote list went without a successor: each quote names its transactionId, listed here.
  'GET /quotes': 'GET /transactions',
  // Plaid went: bank accounts are added by their details.
  'POST /plaid/link-tokens': 'POST /customers/external-accounts',
  'POST /plaid/callback/{}': 'POST /customers/external-accounts',
};

/** The replacement of a removed operation, or undefined when this one was not removed. */
export function replacementOf(method: string, path: string): string | undefined {
  const exact = REMOVED_OPERATIONS[`${method} ${path}`];
  if (exact !== undefined) return exact;
  // One path parameter, as the last segment: `/plaid/callback/<token>`.
  const slash = path.lastIndexOf('/');
  return slash > 0 && slash < path.length - 1 ? REMOVED_OPERATIONS[`${method} ${path.slice(0, slash)}/{}`] : undefined;
}
