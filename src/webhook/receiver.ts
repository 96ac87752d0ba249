/**
 * The webhook receiver: a node:http server that, for each POST on its path, reads the raw body
 * (at most maxBodyBytes; intake.ts) and hands it to delivery.ts (through pipeline.ts), where each delivery is taken
 * through its steps (verify X-Service-Signature over those exact bytes, parse, dedupe, forward,
 * report, record, answer).
 *
 * Where a delivery's CPU goes (test/bench/webhook-bench.mjs): the ECDSA P-256 verify is most of it
 * (which is why the listener verifies on the threadpool); node:http, one JSON.parse and the dedupe
 * lookup are the rest, a little over a bare server. So the hot path keeps to: the body reader's
 * closures, the verifier's one promise, pre-built replies, one parse, the received buffer forwarded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reachableOrigin } from '../reachable-origin.js';
import { createDeliveries } from './pipeline.js';
import { readBody, refuseEarly } from './intake.js';
import * as R from './replies.js';
import type { ReceiverOptions, ReceiverStats, WebhookReceiver } from './receiver-types.js';

export type {
  AcceptedEvent,
  ReceiverOptions,
  ReceiverStats,
  Rejection,
  Verify,
  WebhookReceiver,
} from './receiver-types.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export { SIGNATURE_HEADER } from './pipeline.js';

export function createWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/webhooks';
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const tooLarge = R.tooLarge(maxBody);
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const stats: ReceiverStats = { received: 0, duplicates: 0, rejected: 0, filtered: 0, forwardFailed: 0 };
  /** Deliveries past the body read (verifying, forwarding or recording): close() waits for them. */
  let active = 0;
  let idle: (() => void) | undefined;
  let closing = false;
  const hold = () => {
    active++;
  };
  const release = () => {
    active -= 1;
    if (active === 0 && idle) idle();
  };
  const deliveries = createDeliveries(options, stats, { begin: hold, end: release, stopping: () => closing, refuse });

  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(requestTimeout, 20_000),
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
      keepAliveTimeout: 5000,
    },
    (req, res) => admit(req, res, false),
  );
  // Without this listener node answers `Expect: 100-continue` itself, inviting the body of a request
  // about to be refused (404, 405, 413): decide first, and say "100 Continue" only to a delivery.
  server.on('checkContinue', (req, res) => admit(req, res, true));

  function admit(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    const refusal = refuseEarly(req, path, maxBody, tooLarge);
    if (refusal) return refuse(req, res, refusal.reply, refusal.reason);
    if (expectsContinue) res.writeContinue();
    readBody(
      req,
      maxBody,
      (body) => deliveries.receive(req, res, body),
      () => refuse(req, res, tooLarge, `streamed body over the limit of ${maxBody} bytes`),
    );
  }

  function refuse(req: IncomingMessage, res: ServerResponse, r: R.Reply, reason: string): void {
    stats.rejected++;
    R.send(res, r);
    options.onRejected?.({ status: r.status, reason, remote: req.socket.remoteAddress });
  }

  async function close(graceMs = 5000): Promise<void> {
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (active > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    server.closeAllConnections();
    await closed;
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4242, host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      // Before the first request can be read: a redelivery of a resumed id waits for it.
      const resumed = deliveries.resume(options.dedupe.interrupted());
      resolve({ url: `${reachableOrigin(host, port)}${path}`, port, stats, resumed, close });
    });
  });
}
