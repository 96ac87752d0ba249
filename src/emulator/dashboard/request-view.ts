/**
 * The request log (kernel/request-log.ts) as the dashboard and `svc emulator logs` show it: a
 * summary line per request, and a detail with headers and bodies, secrets masked (redact.ts).
 */
import type { LoggedRequest } from '../kernel/request-log.js';
import { maskHeaders, showBody } from './redact.js';

export interface RequestSummary {
  seq: number;
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** Who called: `Basic <api token id>`, `Bearer (agent <id>)`, or `none`. */
  credential: string;
  /** The Request-Id of a signed two-step flow: both steps carry the same. */
  requestId?: string;
}

export interface RequestDetail extends RequestSummary {
  requestHeaders: Record<string, string>;
  requestBody?: string;
  responseBody?: string;
}

function credentialOf(entry: LoggedRequest): string {
  const header = entry.headers.authorization;
  const principal = entry.principal;
  const signed = entry.headers['service-wallet-signature'] !== undefined ? ' + wallet signature' : '';
  if (principal?.kind === 'agent') return `Bearer (agent ${principal.agentId})${signed}`;
  if (!header) return signed ? `none${signed}` : 'none';
  const [scheme = '', value = ''] = header.split(/\s+/, 2);
  if (scheme.toLowerCase() !== 'basic') return `${scheme}${signed}`;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const id = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : '';
  return `Basic ${id || '(malformed)'}${principal ? '' : ' (refused)'}${signed}`;
}

export function requestSummary(entry: LoggedRequest): RequestSummary {
  return {
    seq: entry.seq,
    time: new Date(entry.atMs).toISOString(),
    method: entry.method,
    path: entry.path,
    status: entry.status,
    durationMs: Math.round(entry.durationMs * 10) / 10,
    credential: credentialOf(entry),
    ...(entry.requestId ? { requestId: entry.requestId } : {}),
  };
}

export function requestDetail(entry: LoggedRequest): RequestDetail {
  const requestBody = showBody(entry.requestBody, entry.headers['content-type']);
  const responseBody = showBody(entry.responseBody, entry.responseType);
  return {
    ...requestSummary(entry),
    requestHeaders: maskHeaders(entry.headers),
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(responseBody !== undefined ? { responseBody } : {}),
  };
}
