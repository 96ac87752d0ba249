/**
 * What the dashboard and `svc emulator logs` may show of a request: headers with credentials
 * masked, bodies with secret fields masked. The API client secret, private keys, API token
 * secrets, device codes and the bearer links of embed pages (card reveal, KYC, liveness) never
 * leave the emulator through them; HTML pages (the card reveal page holds a card number) are shown
 * by size only.
 */
import type { IncomingHttpHeaders } from 'node:http';

const MASK = '••••••';

/** Field names whose values are secrets, in any body. */
const SECRET_FIELD =
  /secret|privateKey|private_key|password|signingKey|deviceCode|userCode|embedUrl|revealUrl|kycUrl|token$/i;
/** Header names whose values are credentials; Authorization is masked on its own terms. */
const SECRET_HEADER = /cookie|secret|password|api-?key|token/i;
/** A bearer link: the path segment after /embed/<kind>/ is the secret. */
const EMBED_LINK = /(\/embed\/[^/\s"]+\/)[^\s"?#]+/g;

/** Authorization with its secret half masked: the Basic client id stays (it names the caller). */
function maskAuthorization(value: string): string {
  const [scheme = '', credentials = ''] = value.split(/\s+/, 2);
  if (scheme.toLowerCase() !== 'basic') return `${scheme} ${MASK}`;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return `Basic ${colon < 0 ? MASK : `${decoded.slice(0, colon)}:${MASK}`}`;
}

export function maskHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    out[name] = name === 'authorization' ? maskAuthorization(value) : SECRET_HEADER.test(name) ? MASK : value;
  }
  return out;
}

function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(EMBED_LINK, `$1${MASK}`);
  if (Array.isArray(value)) return value.map(maskValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value))
      out[key] = SECRET_FIELD.test(key) && v !== null && typeof v !== 'object' ? MASK : maskValue(v);
    return out;
  }
  return value;
}

/** A body as it may be shown: JSON with secrets masked, other text masked of bearer links, HTML by size. */
export function showBody(body: Buffer | string | number | undefined, type: string | undefined): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'number') return `(${body} bytes, too large to keep)`;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (type?.includes('html')) return `(an HTML page of ${Buffer.byteLength(text)} bytes, not shown)`;
  try {
    return JSON.stringify(maskValue(JSON.parse(text)), null, 2);
  } catch {
    return text.replace(EMBED_LINK, `$1${MASK}`);
  }
}

/** A record (a resource, an event's data) with its secret fields masked. */
export function maskRecord<T>(record: T): T {
  return maskValue(record) as T;
}
