/**
 * Endpoints only the emulator has (at the root, outside the version segment, HTTP Basic), which the
 * client calls when it knows its target is the emulator. The service's API has no counterpart.
 */

/** DELETE: unsets the webhook endpoint (the description's PATCH /config takes only a URL string). */
export const UNSET_WEBHOOK_ENDPOINT_PATH = '/_emulator/webhook-endpoint';
