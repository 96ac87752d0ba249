/**
 * `--dry-run`: the request an operation would send and the same request as a curl command, with
 * the signing steps spelled out for a signed one, and nothing sent. Credentials appear as the
 * environment variables that hold them, never as values.
 */
import type { UI } from '../ui.js';
import type { ResourceRequest } from './request.js';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface DryRun {
  request: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  curl: string;
  /** What to do when the service answers 202, for a signed operation. */
  signing?: string[];
}

/** The curl flag for the configured credentials, naming the variable that holds them. */
function curlAuth(kind: 'basic' | 'bearer'): string {
  return kind === 'bearer'
    ? '-H "Authorization: Bearer $SERVICE_ACCESS_TOKEN"'
    : '-u "$SERVICE_API_TOKEN_ID:$SERVICE_API_CLIENT_SECRET"';
}

export function dryRun(
  req: ResourceRequest,
  target: { baseUrl: string; auth: 'basic' | 'bearer' },
  signed: boolean,
  /** Who signs the 202, when not the session (the operation's signedBy). */
  signedBy?: string,
): DryRun {
  const baseUrl = target.baseUrl;
  const url = `${baseUrl.replace(/\/+$/, '')}${req.path}`;
  const headers: Record<string, string> = {
    ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    ...req.headers,
  };
  const curl = [
    `curl -sS -X ${req.method} ${shellQuote(url)}`,
    curlAuth(target.auth),
    ...Object.entries(headers).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
    ...(req.body !== undefined ? [`--data-raw ${shellQuote(req.body)}`] : []),
  ].join(' \\\n  ');
  const signing =
    signed && req.headers['Service-Wallet-Signature'] === undefined
      ? [
          'If the service answers 202 {payloadToSign, requestId, expiresAt}:',
          `1. Sign payloadToSign exactly as received (no re-serializing) with ${signedBy ?? 'the session key'}:`,
          `   svc keys stamp --private-key-file <${signedBy ? 'key-file' : 'session-key-file'}> --payload "$PAYLOAD_TO_SIGN"`,
          '2. Send the same request again, byte-identical body, adding two headers:',
          '   -H "Service-Wallet-Signature: $STAMP" -H "Request-Id: $REQUEST_ID"',
          '3. While it answers 200 {"status":"PROCESSING"}, send that same signed request again',
          '   (backing off) until it settles or expiresAt passes.',
          signedBy
            ? 'svc stops at the 202 without --dry-run: step 1 is yours, then pass --wallet-signature and --request-id.'
            : 'svc does all of this itself without --dry-run, with the active session.',
        ]
      : undefined;
  return {
    request: {
      method: req.method,
      url,
      headers,
      ...(req.body !== undefined ? { body: JSON.parse(req.body) as unknown } : {}),
    },
    curl,
    ...(signing ? { signing } : {}),
  };
}

export function printDryRun(ui: UI, plan: DryRun): void {
  ui.result(plan, () => {
    ui.out(`${plan.request.method} ${plan.request.url}`);
    for (const [name, value] of Object.entries(plan.request.headers)) ui.out(`${name}: ${value}`);
    if (plan.request.body !== undefined) ui.out(`\n${JSON.stringify(plan.request.body, null, 2)}`);
    ui.out('\n# The same request with curl (nothing was sent):');
    ui.out(plan.curl);
    if (plan.signing) ui.out(`\n${plan.signing.map((line) => `# ${line}`).join('\n')}`);
  });
}
