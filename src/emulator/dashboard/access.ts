/**
 * Who may use the dashboard. Two checks, before anything is served:
 * - Host: the request must name the emulator by its own loopback name or address (and port). A page
 *   on another site that points its own DNS name at 127.0.0.1 (DNS rebinding) sends its own name in
 *   Host, and is refused, so it cannot read the dashboard as a same-origin page.
 * - The token, made at each start and carried by the dashboard URL (`?token=`). The page sets it as
 *   an HttpOnly, SameSite=Strict cookie scoped to the dashboard's path, so its scripts, data and
 *   live stream need no token of their own, and a cross-site form or fetch carries no cookie.
 * No token is 401, a wrong one 403; neither says more.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const DASHBOARD_PATH = '/_dashboard';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** The Host values that name this server: the loopback names and the address it listens on. */
function ownHosts(listenHost: string, port: number): Set<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  // A concrete address given to --host names the server too; a wildcard one is reached on loopback.
  if (listenHost !== '0.0.0.0' && listenHost !== '::')
    names.push(listenHost.includes(':') ? `[${listenHost}]` : listenHost);
  return new Set(names.map((name) => `${name.toLowerCase()}:${port}`));
}

export type Refusal = { status: 401 | 403; message: string };

export class DashboardAccess {
  /** The per-start secret of the dashboard URL. */
  readonly token = randomBytes(24).toString('base64url');
  private readonly expected = digest(this.token);
  private hosts = new Set<string>();
  private cookieName = 'svc_dashboard';

  listening(listenHost: string, port: number): void {
    this.hosts = ownHosts(listenHost, port);
    // Cookies are shared by every port of a host: one name per port keeps two emulators apart.
    this.cookieName = `svc_dashboard_${port}`;
  }

  /** The refusal for this request, or undefined when it may be served. */
  check(req: IncomingMessage, url: URL): Refusal | undefined {
    if (!this.hosts.has((req.headers.host ?? '').toLowerCase()))
      return { status: 403, message: 'Forbidden: the dashboard answers only to its own loopback address' };
    const given = url.searchParams.get('token') ?? this.cookieOf(req);
    if (given === undefined || given === '') return { status: 401, message: 'Unauthorized' };
    if (!timingSafeEqual(digest(given), this.expected)) return { status: 403, message: 'Forbidden' };
    return undefined;
  }

  /** The cookie the page sets, so its own requests carry the token. */
  cookie(): string {
    return `${this.cookieName}=${this.token}; Path=${DASHBOARD_PATH}/; HttpOnly; SameSite=Strict`;
  }

  private cookieOf(req: IncomingMessage): string | undefined {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [name, ...value] = part.trim().split('=');
      if (name === this.cookieName) return value.join('=');
    }
    return undefined;
  }
}
