/**
 * The service's base address always ends with a date-form version segment (spec "Versioning"), so a
 * user may type `http://127.0.0.1:4010` and still reach `http://127.0.0.1:4010/2025-10-13`.
 */
import { UsageError } from '../errors.js';
import { API_VERSION } from '../service/api-version.js';

export { API_VERSION };

const VERSION_SEGMENT_RE = /\/\d{4}-\d{2}-\d{2}$/;

/**
 * Appends /2025-10-13 unless the URL already ends with a /YYYY-MM-DD segment; strips trailing slash.
 * `input` is the caller's name for the value, which a refusal names (src/errors.ts).
 */
export function normalizeBaseUrl(url: string, input = 'baseUrl'): string {
  // Errors echo the value so a typo is visible, but never a user:password@ part it may carry.
  const shown = String(url).replace(/\/\/[^/?#]*@/, '//…@');
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new UsageError(`Invalid base URL "${shown}": expected something like http://127.0.0.1:4010`, {
      input,
      reason: 'NOT_A_URL',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`Invalid base URL "${shown}": only http and https are supported`, {
      input,
      reason: 'UNSUPPORTED_SCHEME',
    });
  }
  // Credentials in a URL end up in logs and error messages; they belong in the token env vars.
  if (parsed.username || parsed.password) {
    throw new UsageError('The base URL must not contain credentials', {
      input,
      reason: 'CREDENTIALS_IN_URL',
      hint: 'Pass the API token with SERVICE_API_TOKEN_ID and SERVICE_API_CLIENT_SECRET instead.',
    });
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const versioned = VERSION_SEGMENT_RE.test(path) ? path : `${path}/${API_VERSION}`;
  return `${parsed.origin}${versioned}`;
}

/** baseUrl + path, with exactly one slash between them whatever the caller wrote. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl}/${path.replace(/^\/+/, '')}`;
}

/** The path part of a request path, without the query (queries may carry values we do not log). */
export function pathOnly(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const q = withSlash.search(/[?#]/);
  return q === -1 ? withSlash : withSlash.slice(0, q);
}

/** Query parameter names whose value may be a secret; their values are logged as ***. */
const SECRET_PARAM = /secret|token|passw|signature|private|otp|credential|^code$|^key$|api[-_]?key/i;

/**
 * The query of a request path as the verbose log shows it (`?limit=2&cursor=abc`, or '' for none): the
 * names and values that say what was asked, with the value of any parameter whose name may hold a
 * secret replaced by ***. The API's own parameters (ids, cursors, limits, dates) carry none.
 */
export function loggableQuery(path: string): string {
  const q = path.indexOf('?');
  if (q === -1) return '';
  const query = path.slice(q + 1).split('#')[0]!;
  if (query === '') return '';
  const shown = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed escape is shown as sent.
    }
    return eq !== -1 && SECRET_PARAM.test(decoded) ? `${name}=***` : pair;
  });
  return `?${shown.join('&')}`;
}
