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
