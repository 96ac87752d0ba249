/**
 * The dashboard: a page served by the emulator itself at DASHBOARD_PATH, with its front end (ui/),
 * data endpoints (data.ts) and live stream (live.ts). Every request to it passes access.ts first;
 * every answer carries a Content-Security-Policy that lets the page load and connect to nothing
 * but this server, and no Referer leaves it (its URL holds the token).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from '../kernel/context.js';
import { DASHBOARD_PATH, DashboardAccess } from './access.js';
import { asset } from './assets.js';
import { dataReply } from './data.js';
import { LiveStream } from './live.js';

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** The largest body a data POST takes (an "Advance by" text, nothing more). */
const MAX_POST_BYTES = 4096;

export class Dashboard {
  private readonly emu: EmulatorContext;
  private readonly access = new DashboardAccess();
  readonly live: LiveStream;

  constructor(emu: EmulatorContext) {
    this.emu = emu;
    this.live = new LiveStream(emu);
  }

  listening(listenHost: string, port: number): void {
    this.access.listening(listenHost, port);
  }

  /** The page's address: on the emulator's own origin, with this start's token. */
  get url(): string {
    return `${this.emu.origin}${DASHBOARD_PATH}/?token=${this.access.token}`;
  }

  /** Serves req when it is the dashboard's; false when it is not (the API serves it). */
  handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    const target = req.url ?? '';
    if (
      target !== DASHBOARD_PATH &&
      !target.startsWith(`${DASHBOARD_PATH}/`) &&
      !target.startsWith(`${DASHBOARD_PATH}?`)
    )
      return false;
    let url: URL;
    try {
      url = new URL(target, 'http://dashboard.invalid');
    } catch {
      this.text(res, 400, 'Bad request');
      return true;
    }
    const refusal = this.access.check(req, url);
    if (refusal) {
      req.resume();
      this.text(res, refusal.status, refusal.message);
      return true;
    }
    void this.serve(req, res, url).catch(() => {
      if (res.headersSent) res.destroy();
      else this.text(res, 500, 'The dashboard hit an internal error');
    });
    return true;
  };

  private async serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice(DASHBOARD_PATH.length + 1);
    const method = req.method ?? 'GET';
    if (path === '' || path === 'index.html') {
      if (url.pathname === DASHBOARD_PATH) {
        res.writeHead(308, { ...SECURITY_HEADERS, location: `${DASHBOARD_PATH}/${url.search}` }).end();
        return;
      }
      const page = asset('index.html')!;
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': page.type, 'set-cookie': this.access.cookie() });
      res.end(page.body);
      return;
    }
    if (path === 'events' && method === 'GET') {
      this.live.open(res, SECURITY_HEADERS);
      return;
    }
    if (path.startsWith('api/')) {
      const body = method === 'POST' ? await readJson(req) : undefined;
      if (body === INVALID) {
        this.json(res, 400, { message: 'The body must be a JSON object of at most 4 kB, sent as application/json' });
        return;
      }
      const reply = await dataReply(this.emu, method, path.slice('api/'.length), url.searchParams, body);
      this.json(res, reply.status, reply.body);
      return;
    }
    const file = method === 'GET' && !path.includes('/') ? asset(path) : undefined;
    if (!file) {
      this.text(res, 404, 'Not found');
      return;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': file.type }).end(file.body);
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }

  private text(res: ServerResponse, status: number, message: string): void {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(`${message}\n`);
  }
}

const INVALID = Symbol('invalid body');

/** A POST's JSON object body; INVALID when it is not one (a form post from elsewhere never is). */
async function readJson(req: IncomingMessage): Promise<unknown> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    req.resume();
    return INVALID;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_POST_BYTES) return INVALID;
    chunks.push(chunk);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : INVALID;
  } catch {
    return INVALID;
  }
}
