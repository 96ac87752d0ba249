/**
 * `svc trigger --events`: the webhook types a run caused, seen on the wire. For the run, the
 * service's webhook endpoint points at a receiver on 127.0.0.1 that records each delivery and passes
 * it on, byte for byte with its X-Service-Signature, to the endpoint that was set before (so a
 * running `svc webhook listen` or your app still gets everything); afterwards the old endpoint is
 * put back. The service must reach 127.0.0.1, so this is for the embedded emulator.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { ApiClient } from '../http/types.js';
import { UsageError } from '../errors.js';

export interface SeenEvent { id: string; type: string; data: unknown }

export interface EventTap {
  /** Every delivery received so far, in order, duplicates (same id) dropped. */
  seen(): SeenEvent[];
  /** Waits until deliveries stop arriving for `quietMs` (at most `maxMs`), then restores the old endpoint; once. */
  close(opts?: { quietMs?: number; maxMs?: number }): Promise<void>;
}

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host === '::1';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Passes a delivery on to the endpoint set before; its status goes back to the service. */
async function forward(to: string, body: Buffer, signature: string | undefined): Promise<number> {
  try {
    const res = await request(to, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-service-signature': signature } : {}) },
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    await res.body.dump();
    return res.statusCode;
  } catch {
    return 502;
  }
}

export async function tapWebhooks(client: ApiClient, signal?: AbortSignal): Promise<EventTap> {
  if (!isLoopback(new URL(client.baseUrl).hostname)) {
    throw new UsageError('--events needs the service to deliver webhooks to this machine: it works with the embedded emulator (svc emulator start).', {
      field: '--events',
      hint: 'Against the remote sandbox, watch the events with svc webhook listen behind a public URL instead.',
    });
  }
  const config = await client.request<{ webhookEndpoint?: string | null }>({ method: 'GET', path: '/config', signal });
  const previous = config.body?.webhookEndpoint ?? null;
  const events: SeenEvent[] = [];
  let lastArrival = Date.now();
  const server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      lastArrival = Date.now();
      try {
        const envelope = JSON.parse(body.toString('utf8')) as Partial<SeenEvent>;
        if (typeof envelope.id === 'string' && typeof envelope.type === 'string' && !events.some((e) => e.id === envelope.id)) {
          events.push({ id: envelope.id, type: envelope.type, data: envelope.data });
        }
      } catch {
        // Not an envelope: still passed on, the endpoint behind us decides.
      }
      const status = previous ? await forward(previous, body, req.headers['x-service-signature'] as string | undefined) : 200;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: `http://127.0.0.1:${port}/webhooks` }, signal });

  let closing: Promise<void> | undefined;
  return {
    seen: () => [...events],
    close: (opts = {}) => (closing ??= settle(opts)),
  };

  /** Deliveries of the last step may still be on their way: wait for `quietMs` without one. */
  async function settle({ quietMs = 300, maxMs = 3000 }: { quietMs?: number; maxMs?: number }): Promise<void> {
    const started = Date.now();
    const quiet = () => Date.now() - Math.max(lastArrival, started) >= quietMs;
    while (!quiet() && Date.now() - started < maxMs) await new Promise((r) => setTimeout(r, 50));
    try {
      await client.request({ method: 'PATCH', path: '/config', body: { webhookEndpoint: previous } });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}

/** Whether an event is about one of the run's resources: its data (or data one level down) names one of their ids. */
export function concerns(event: SeenEvent, ids: ReadonlySet<string>): boolean {
  const values = (o: unknown): unknown[] => (o !== null && typeof o === 'object' ? Object.values(o as object) : []);
  const data = values(event.data);
  return [...data, ...data.flatMap(values)].some((v) => typeof v === 'string' && ids.has(v));
}
