/**
 * The next step for an API error when the thrower gave none: by the service's error code first,
 * then by the field a 400 names, then by the status. A hint must fit what went wrong: an unknown
 * route is a wrong path or base URL, not a wrong identifier; a quote that is already paid is not
 * fixed by editing fields.
 */
import { ApiError, AuthRequiredError, InsecureTransportError, type SvcError } from '../src/errors.js';
import { reauthCommand, sessionHint } from './auth-hints.js';
import { NO_ROUTE_DETAILS, isNoRoute } from '../src/service/no-route.js';

const CUSTOMER_ID = /\bCustomer:[0-9a-fA-F-]{36}\b/;

/** `svc customers update` with the flag that sets a customer's contact field. */
const CONTACT_FLAGS: Record<string, string> = {
  phoneNumber: '--phone-number +15555550100',
  email: '--email <address>',
};

/**
 * The update that sets the missing contact field. `customers update` requires `--type` (the body's
 * discriminator), so the command carries the customer's own type when the caller read it.
 */
export function missingContactHint(error: ApiError, customerType?: string): string | undefined {
  const field = error.fieldErrors.map((fe) => fe.field).find((f) => f in CONTACT_FLAGS);
  if (field === undefined) return undefined;
  const customer = CUSTOMER_ID.exec(error.message)?.[0] ?? '<Customer:id>';
  const type = customerType ?? '<INDIVIDUAL|BUSINESS>';
  return `Set the customer's ${field} first (E.164 for a phone number): svc customers update ${customer} --type ${type} ${CONTACT_FLAGS[field]}, then run the command again.`;
}

/** The customer a MISSING_MANDATORY_USER_INFO error names, for reading its type. */
export function customerNamedBy(error: ApiError): string | undefined {
  return error.code === 'MISSING_MANDATORY_USER_INFO' ? CUSTOMER_ID.exec(error.message)?.[0] : undefined;
}

/** An identifier in a path or message: `Customer:<uuid>`, a bare UUID, or a prefixed id like `evt_…`. */
const ID_LIKE = /[A-Za-z]+:[0-9A-Za-z-]{8,}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-|\b[a-z]+_[0-9A-Za-z]{6,}/;

/**
 * A 404 the server marks as an unknown route (src/service/no-route.ts) is a wrong path or base URL.
 * A bare NOT_FOUND is taken for one only when the request named no identifier (or the body says
 * "no route"): some servers use that code for a missing record too.
 */
function unknownRoute(error: ApiError): string | undefined {
  if (error.status !== 404 || !isNoRoute(error.code, error.details)) return undefined;
  const marked = error.details?.route === NO_ROUTE_DETAILS.route;
  const named = ID_LIKE.test(`${error.path ?? ''} ${error.message}`) || error.details !== undefined;
  if (!marked && !/\bno route\b/i.test(error.message) && named) return undefined;
  const what = error.method && error.path ? `${error.method} ${error.path}` : 'this request';
  return `The service has no route for ${what}: check the path (the API's paths, like /customers or /quotes/<id>) and the base URL (svc config get base-url; it ends in the version segment, like /2025-10-13).`;
}

/** The description's one 409 of POST /auth/delegated-keys: the card funding source has an ACTIVE key. */
function activeDelegatedKey(error: ApiError): string | undefined {
  if (error.path?.split('?')[0] !== '/auth/delegated-keys') return undefined;
  const id = /\bDelegatedKey:[0-9a-fA-F-]{36}\b/.exec(error.message)?.[0] ?? '<DelegatedKey:id>';
  return `A card funding source has one ACTIVE delegated key at a time: revoke it first (svc auth delegated-keys revoke ${id}), then create the new one.`;
}

const ACCOUNT_ID = /\bInternalAccount:[0-9a-fA-F-]{36}\b/;

/**
 * An OTP credential of a type the account has: the list that shows its id, with the account the
 * error names (the service names the account, not the credential).
 */
function credentialExists(error: ApiError): string {
  const account = ACCOUNT_ID.exec(error.message)?.[0];
  const list = account ? `svc credentials list --account ${account}` : 'svc credentials list';
  return `The account has one already (${list} shows its id); remove it first to replace it: svc credentials remove <AuthMethod:id>.`;
}

const BY_CODE: Record<string, (error: ApiError) => string | undefined> = {
  MISSING_MANDATORY_USER_INFO: (error) => missingContactHint(error),
  CONFLICT: activeDelegatedKey,
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: credentialExists,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: credentialExists,
  INVALID_CURRENCY: () => 'Use the currency the message names (the quote or account decides it).',
  INVALID_AMOUNT: () => 'Use the amount the message names, in the smallest unit of the currency (cents for USD).',
  SIGNATURE_REQUIRED: (error) =>
    error.method && error.path
      ? `Run svc api ${error.method} ${error.path}: it signs the 202 challenge with your session key.`
      : undefined,
  WEBHOOK_ENDPOINT_NOT_SET: () =>
    'Set where webhooks go: svc platform-config update --webhook-endpoint <url> (on the emulator, svc webhook listen sets it).',
};

/** The quote a request's path names (`/quotes/<id>/execute`), else a placeholder. */
function quoteOf(error: ApiError): string {
  const id = /^\/quotes\/([^/?]+)/.exec(error.path ?? '')?.[1];
  return id ? decodeURIComponent(id) : '<Quote:id>';
}

/** A quote the service refuses to use: not fixed by editing fields. */
export function unusableQuoteHint(quoteId: string): string {
  return `This quote cannot be used as it stands (see above): check it with svc quotes get ${quoteId}, or create a new one (svc quotes create --help).`;
}

/** A field a 400 names whose fix is not to edit that field. */
const BY_FIELD: Record<string, (error: ApiError) => string> = {
  quoteId: (error) => unusableQuoteHint(quoteOf(error)),
};

export function defaultHint(error: ApiError): string | undefined {
  const byCode = unknownRoute(error) ?? BY_CODE[error.code]?.(error);
  if (byCode) return byCode;
  // A 401 of a session-signed call: the session failed, and its credential logs in again.
  if (error.status === 401 && error.next) return sessionHint(error, error.next);
  // Commands that know which credential failed (API token or session key) give a sharper hint.
  if (error.status === 401)
    return 'Check the API credentials (SERVICE_API_TOKEN_ID, SERVICE_API_CLIENT_SECRET or the profile) and, for signed calls, the session (svc session show).';
  if (error.status === 404) return 'Check the identifier: it names nothing the service knows.';
  const fields = error.fieldErrors.map((fe) => fe.field);
  const byField = fields.map((f) => BY_FIELD[f]).find(Boolean);
  if (error.status === 400 && byField && fields.every((f) => BY_FIELD[f])) return byField(error);
  if (error.status === 400 && fields.length > 0) return 'Fix the fields above and run the command again.';
  if (error.status >= 300 && error.status < 400)
    return 'The server redirected; check the base URL (--base-url or SERVICE_BASE_URL).';
  if (error.status === 403) return 'Sandbox endpoints need a sandbox token; check --profile or SERVICE_API_TOKEN_ID.';
  if (error.status === 429) return 'Rate limited: wait a moment and try again.';
  if (error.status >= 500) return 'The service failed; try again shortly.';
  return undefined;
}

const SANDBOX_HINT =
  'For a local sandbox, run `svc emulator start --detach`: it makes the `local` profile current, so the next command needs no flags; to keep your own settings, use `svc config set base-url <url>` and the API token keys.';

/** The login command for a session error, with the credential the core named when it knew one. */
function loginFor(error: SvcError): string {
  const next = error instanceof AuthRequiredError ? error.next : undefined;
  return reauthCommand(next?.credentialId, next?.type);
}

/**
 * The CLI's next step for a core error, by its reason code (src/errors.ts): the core's own hint is
 * for any caller and names no command or flag; these do. A reason not listed keeps the core's hint.
 */
const BY_REASON: Record<string, (error: SvcError) => string | undefined> = {
  MISSING_BASE_URL: () => `Pass --base-url or set SERVICE_BASE_URL. ${SANDBOX_HINT}`,
  MISSING_CREDENTIALS: () => SANDBOX_HINT,
  FULL_URL: () => 'Point svc at another service with --base-url.',
  UNREACHABLE: () =>
    'Check the base URL (--base-url or SERVICE_BASE_URL) and that the server is running; for a local sandbox run `svc emulator start`.',
  BODY_TIMEOUT: () =>
    'The server is slow or sends without end; raise --timeout (SERVICE_TIMEOUT) if the answer is large and slow, or check the base URL.',
  NOT_A_PUBLIC_KEY: (error) => `${error.hint ?? ''} Generate one with: svc keys generate`.trim(),
  NOT_ON_CURVE: () => 'Check that the key was copied whole; generate one with: svc keys generate',
  NOT_A_PRIVATE_KEY: () => 'Generate one with: svc keys generate',
  NONCE_MISMATCH: () =>
    'The client key is kept: ask for a token with that nonce and pass it with --token, or use --sandbox-token against a sandbox.',
  STILL_PROCESSING: () =>
    'The service settles it on its own: check its state (e.g. svc session list) or run the command again later; raise --timeout to wait longer.',
  NO_KEY_HELD: (error) => `List the sessions held here with \`svc session list\`, or log in again: ${loginFor(error)}`,
  SESSION_EXPIRED: (error) => `Re-authenticate: ${loginFor(error)}`,
  NO_SESSION_TO_REFRESH: (error) => `Log in first: ${loginFor(error)} (or name one: svc session refresh <Session:id>)`,
  NO_LIVE_KEY: (error) => `Log in first: ${loginFor(error)}`,
  NO_SIGNER: () =>
    'Log in first (svc login otp --credential <AuthMethod:id>), or pick a session with --session <Session:id>.',
  INSECURE_TRANSPORT: (error) =>
    error instanceof InsecureTransportError
      ? `Use https:// in the base URL (--base-url or SERVICE_BASE_URL). If ${error.host} is yours and the network is trusted, pass --allow-insecure-http (or set SERVICE_ALLOW_INSECURE_HTTP=1).`
      : undefined,
  // svc trigger (src/trigger)
  PRODUCTION_TOKEN: () =>
    'svc trigger only runs in the sandbox: use a sandbox token (svc config set api-token-id <id>, or SERVICE_API_TOKEN_ID / SERVICE_API_CLIENT_SECRET), or the emulator.',
  NOT_RUNNABLE: () => 'svc trigger --list marks the scenarios this svc can run.',
  NO_EVENT_LOG: () => 'Against the remote sandbox, watch the deliveries with svc webhook listen instead.',
  // svc webhook listen and replay (src/webhook, src/webhook-replay)
  PORT_IN_USE: () => 'Pass another --port (0 picks a free one).',
  CANNOT_LISTEN: () => 'Pass a --host address of this machine (the default is 127.0.0.1), or a --port above 1023.',
  STORE_UNUSABLE: () => 'Pass a --store file in a folder you can write.',
  STORE_DAMAGED: () =>
    'Run the same command with --repair: the damaged line and everything after it move aside into a file next to the journal (named on stderr), and the listener starts with the lines before it.',
  STORE_NOT_JOURNAL: () =>
    'Pass --store a new file name (svc creates the journal there) or the journal a listener made.',
  STORE_IS_LINK: () => 'Pass --store the path of the journal file itself, or a new file name.',
  UNREADABLE_JOURNAL: () => 'Pass the journal file a listener was given with --store.',
  NO_TARGET: () => 'Pass --to <url> (your app, e.g. localhost:3000/webhooks).',
  NO_REPLAY: () => 'Point the command at a running `svc emulator start`.',
};

/**
 * The hint the CLI shows for an error: an API error's own, else the default for its code; any
 * other's by its reason code, else the one it carries.
 */
export function hintFor(error: SvcError): string | undefined {
  if (error instanceof ApiError) return error.hint ?? defaultHint(error);
  return (error.reason === undefined ? undefined : BY_REASON[error.reason]?.(error)) ?? error.hint;
}
