/**
 * The hosted verification link (the description's POST /customers/{customerId}/kyc-link): 201
 * {kycUrl, expiresAt, provider} for either customer type, without changing its status. Each call
 * makes a new single-use link; older ones stay good until they expire (KYC_LINK_TTL_MS of emulator
 * time, a choice: the description gives no lifetime). `Idempotency-Key` replays the first answer.
 * The link opens a sandbox page at /embed/kyc/<token> (public: the token is the secret) showing
 * the data already sent; submitting it is one POST /verifications (same transitions and webhooks)
 * and uses the link up, then the page sends the browser to `redirectUri` when one was given.
 * The emulator's customers never need contact verification, so its 409 does not occur.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Reply, Route } from '../../kernel/router.js';
import { memoryTable } from '../../kernel/tables.js';
import { customerOr404, liveCustomerOr4xx, type CustomerRec } from '../customers/customers.js';
import { submitVerification } from './routes.js';
import { escapeHtml } from '../../kernel/html.js';

const KYC_LINK_TTL_MS = 60 * 60 * 1000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

interface KycLink {
  token: string;
  customerId: string;
  redirectUri?: string;
  expiresAtMs: number;
}

export const kycLinks = memoryTable<KycLink>('kycLinks');

/** https, or http on a loopback host (the description allows http for local development). */
function redirectProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'redirectUri must be an absolute URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'redirectUri must be https (http only on localhost for local development)';
}

const create: Route = {
  method: 'POST',
  path: '/customers/:id(Customer)/kyc-link',
  permission: 'MANAGE',
  idempotent: {},
  handler(req, emu) {
    // The body is optional: none at all is no redirect.
    const f = new Fields(req.raw.length === 0 ? {} : req.json());
    const redirectUri = f.string('redirectUri', { format: 'uri', maxLength: 2048, check: redirectProblem });
    f.done();
    const customer = liveCustomerOr4xx(emu, req.params.id!, 'conflict');
    const token = randomBytes(24).toString('base64url');
    const link: KycLink = {
      token,
      customerId: customer.id,
      expiresAtMs: emu.now() + KYC_LINK_TTL_MS,
      ...(redirectUri ? { redirectUri } : {}),
    };
    emu.table(kycLinks).set(token, link);
    const answer = {
      kycUrl: `${emu.origin}/embed/kyc/${token}`,
      expiresAt: emu.iso(link.expiresAtMs),
      provider: 'SUMSUB',
    };
    return { status: 201, body: answer };
  },
};

function usableLink(emu: EmulatorContext, token: string): KycLink {
  const link = emu.table(kycLinks).get(token);
  if (!link || link.expiresAtMs <= emu.now())
    throw new HttpError(404, 'NOT_FOUND', 'This KYC link is unknown, used or expired; ask the platform for a new one');
  return link;
}

/** What the page shows as already sent (never the identifier). */
function prefilled(c: CustomerRec): Array<[string, string]> {
  const rows: Array<[string, string | undefined]> =
    c.customerType === 'BUSINESS'
      ? [
          ['Legal name', c.businessInfo?.legalName as string | undefined],
          ['Registration number', c.businessInfo?.registrationNumber as string | undefined],
          ['Country', c.businessInfo?.country as string | undefined],
        ]
      : [
          ['Full name', c.fullName],
          ['Birth date', c.birthDate],
          ['Nationality', c.nationality],
          ['ID type', c.idType],
        ];
  return rows.filter((r): r is [string, string] => r[1] !== undefined);
}

const html = (status: number, body: string, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
  text: `<!doctype html><meta charset="utf-8"><title>Sandbox identity verification</title>${body}`,
});

/**
 * The hosted page a person opens from the link: public (the token is the credential), unversioned,
 * and logged without its token. Both methods refuse an unknown, used or expired token alike.
 */
function embedRoute(method: 'GET' | 'POST', handler: (link: KycLink, emu: EmulatorContext) => Reply): Route {
  return {
    method,
    path: '/embed/kyc/:token',
    permission: 'none',
    unversioned: true,
    public: true,
    logPath: '/embed/kyc/<token>',
    handler: (req, emu) => handler(usableLink(emu, req.params.token!), emu),
  };
}

const page = embedRoute('GET', (link, emu) => {
  const customer = customerOr404(emu, link.customerId);
  const rows = prefilled(customer)
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('');
  return html(
    200,
    `<h1>Sandbox identity verification</h1><table>${rows}</table><form method="post"><button>Submit for verification</button></form>`,
  );
});

const submit = embedRoute('POST', (link, emu) => {
  let verification;
  try {
    verification = submitVerification(emu, liveCustomerOr4xx(emu, link.customerId, 'conflict'));
  } catch (error) {
    // A person reads this page: the refusal POST /verifications would give, as a page; the link stays.
    if (!(error instanceof HttpError)) throw error;
    return html(error.status, `<p>${escapeHtml(error.message)}</p>`);
  }
  emu.table(kycLinks).delete(link.token);
  if (link.redirectUri) return html(303, '', { location: link.redirectUri });
  return html(200, `<p>Submitted: ${escapeHtml(verification.verificationStatus)}</p>`);
});

export const kycLinkRoutes: Route[] = [create, page, submit];
