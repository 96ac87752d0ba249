/**
 * One delivery's way through the listener, as plain async steps:
 *
 *   received → verified → claimed → journaled → forwarded → shown → recorded → answered
 *                                                   │
 *                                                   └→ queued (the app failed, journal: answered
 *                                                      200 queued, retried by forward-queue.ts)
 *
 * A filtered type goes from claimed straight to recorded; a duplicate, a refusal, or a failure on
 * the way (the app's error without a journal, a journal or output error) ends it with its answer
 * and releases the id, so the service's retry starts over. The order is the crash contract of
 * dedupe.ts: nothing is remembered as seen before what it is for has happened, and nothing is
 * answered 2xx before it is recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseEnvelope, type WebhookEvent } from './envelope.js';
import { serviceHeaders, type ForwardResult } from './forward.js';
import type { Pipeline } from './pipeline.js';
import * as R from './replies.js';
import type { AcceptedEvent } from './receiver-types.js';

export const SIGNATURE_HEADER = 'x-service-signature';
const BAD_SIGNATURE_REASON = 'X-Service-Signature does not verify over the body';
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** What a delivery carries through its steps. */
export interface Delivery {
  event: WebhookEvent;
  body: Buffer;
  headers: Record<string, string>;
  /** Where the outcome goes: the service's request, or nowhere (resumed from the journal, or a local retry). */
  res: ServerResponse | undefined;
  /** The local attempt to forward it: 1, then one more with each retry from the queue. */
  attempt: number;
  /** Its turn in the failed-forward queue: tried even while others wait for the same app. */
  fromQueue?: boolean;
}

/** A request's body was read: takes it through every step. */
export async function receive(p: Pipeline, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  p.life.begin();
  try {
    const event = await verifiedEvent(p, req, res, body);
    if (event === undefined) return;
    const shown = p.wanted === undefined || p.wanted.has(event.type);
    if (!(claim(p, event, res, shown) ?? (await claimAfterTurn(p, event, res, shown)))) return;
    if (!shown) return await recordFiltered(p, event, res);
    // The headers go with a forward and into the journal; without either nothing reads them.
    const headers = p.keepsHeaders ? serviceHeaders(req.headers) : NO_HEADERS;
    await takeThrough(p, { event, body, headers, res, attempt: 1 });
  } finally {
    p.life.end();
  }
}

/** received → verified: the signature over the exact bytes, then the envelope; refused (401, 400) otherwise. */
async function verifiedEvent(
  p: Pipeline,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
): Promise<WebhookEvent | undefined> {
  const { verify } = p.options;
  if (verify !== undefined) {
    const header = req.headers[SIGNATURE_HEADER];
    if (typeof header !== 'string' || header === '')
      return void p.life.refuse(req, res, R.MISSING_SIGNATURE, 'missing X-Service-Signature header');
    let valid: boolean;
    try {
      valid = await verify(body, header);
    } catch {
      valid = false;
    }
    if (!valid) return void p.life.refuse(req, res, R.BAD_SIGNATURE, BAD_SIGNATURE_REASON);
  }
  const event = parseEnvelope(body);
  if (typeof event === 'string') return void p.life.refuse(req, res, R.reply(400, { error: event }), event);
  return event;
}

/**
 * verified → claimed: true when the id is now this delivery's, false once it is answered (duplicate,
 * queued, shutting down), undefined while another delivery of the same id is under way. Synchronous:
 * the usual delivery is claimed without waiting for a turn of the microtask queue.
 */
function claim(p: Pipeline, event: WebhookEvent, res: ServerResponse, shown: boolean): boolean | undefined {
  const { id } = event;
  // Once stopping, nothing new is recorded or printed: the service keeps it and retries.
  if (p.life.stopping()) {
    R.send(res, R.SHUTTING_DOWN);
    return false;
  }
  if (p.options.dedupe.has(id)) {
    p.stats.duplicates++;
    R.send(res, R.DUPLICATE);
    if (shown) p.options.onDuplicate?.(event);
    return false;
  }
  if (p.queue?.has(id)) {
    R.send(res, R.QUEUED); // ours to retry: the service may stop
    return false;
  }
  if (p.inflight.has(id)) return undefined;
  p.inflight.set(id, null);
  return true;
}

/** Same id still being forwarded or recorded: its outcome decides (duplicate, or our turn). */
async function claimAfterTurn(p: Pipeline, event: WebhookEvent, res: ServerResponse, shown: boolean): Promise<boolean> {
  for (;;) {
    await p.turn(event.id);
    const claimed = claim(p, event, res, shown);
    if (claimed !== undefined) return claimed;
  }
}

async function recordFiltered(p: Pipeline, event: WebhookEvent, res: ServerResponse): Promise<void> {
  p.stats.received++;
  p.stats.filtered++;
  p.options.onFiltered?.(event);
  try {
    await p.options.dedupe.record(event.id);
    R.send(res, R.ACCEPTED);
  } catch (error) {
    fail(p, { event, res }, R.STORE_FAILED, error);
  } finally {
    p.settle(event.id);
  }
}

/** claimed → … → answered; the id is settled however it ends. Resolves true when the forward (if any) succeeded. */
export async function takeThrough(p: Pipeline, d: Delivery): Promise<boolean> {
  try {
    return await journaledAndForwarded(p, d);
  } finally {
    p.settle(d.event.id);
  }
}

async function journaledAndForwarded(p: Pipeline, d: Delivery): Promise<boolean> {
  const { dedupe, forwarder } = p.options;
  try {
    // In memory there is nothing to wait for: no turn of the microtask queue is spent on it.
    const begun = dedupe.begin(d.event.id, d.body, d.headers);
    if (begun !== undefined) await begun;
  } catch (error) {
    return fail(p, d, R.STORE_FAILED, error);
  }
  const target = forwarder?.pick ? forwarder.pick(d.event.type) : forwarder;
  let forward: ForwardResult | undefined;
  let reply = R.ACCEPTED;
  if (target) {
    // Deliveries already wait for this app: this one joins them rather than adding an attempt.
    if (!d.fromQueue && p.queue?.waitingFor(target.url)) return queued(p, d, target.url, undefined);
    forward = await target.forward(d.body, d.headers);
    // 409: the app already had it: done, for an at-least-once consumer; the 409 stops the retries too.
    if (forward.status === 409) reply = R.APP_HAD_IT;
    else if (!forward.ok) return p.queue ? queued(p, d, target.url, forward) : forwardFailed(p, d, forward);
  }
  if (!(await shown(p, d, forward))) return false;
  try {
    const recorded = dedupe.durable
      ? dedupe.record(d.event.id, { verified: p.verified, forward })
      : dedupe.record(d.event.id);
    if (recorded !== undefined) await recorded;
  } catch (error) {
    // Shown but not recorded: the service's retry shows it again, and says so.
    p.interrupted.add(d.event.id);
    return fail(p, d, R.STORE_FAILED, error);
  }
  p.interrupted.delete(d.event.id);
  if (d.res) R.send(d.res, reply);
  return true;
}

/** → shown: reported, and its line written (onEvent's promise). False if it could not be shown. */
async function shown(p: Pipeline, d: Delivery, forward: ForwardResult | undefined): Promise<boolean> {
  const { event } = d;
  const redelivered = p.interrupted.has(event.id);
  p.stats.received++;
  try {
    const accepted: AcceptedEvent = { event, body: d.body, verified: p.verified };
    if (forward) accepted.forward = forward;
    if (redelivered) accepted.redelivered = redelivered;
    if (d.attempt > 1) accepted.attempt = d.attempt;
    const written = p.options.onEvent(accepted);
    if (written !== undefined) await written;
    return true;
  } catch (error) {
    // Not shown, so not recorded: the service is answered 500 and its retry shows it. A delivery
    // acknowledged but never printed would then be dropped as a duplicate.
    p.stats.received--;
    return fail(p, d, R.NOT_SHOWN, error);
  }
}

/** Without a journal the app's error goes back to the service, which retries. */
function forwardFailed(p: Pipeline, d: Delivery, result: ForwardResult): false {
  p.stats.forwardFailed++;
  p.options.dedupe.release(d.event.id);
  if (d.res)
    R.send(d.res, R.reply(result.status, { error: result.error ?? `forward target answered ${result.status}` }));
  p.options.onForwardFailed?.(d.event, result);
  return false;
}

/**
 * → queued: with a journal the listener owns a failed forward. The delivery stays begun in the
 * journal (a restart resumes it), the service is answered 200 (queued) once the journal says so,
 * and the queue forwards it again. `result` is undefined when it joined the queue without an attempt.
 */
async function queued(p: Pipeline, d: Delivery, target: string, result: ForwardResult | undefined): Promise<false> {
  const attempts = result ? d.attempt : d.attempt - 1;
  if (result) p.stats.forwardFailed++;
  // A failed write changes nothing: the begun line already makes a restart retry it.
  await p.options.dedupe
    .queue(d.event.id, { verified: p.verified, ...(result && { forward: result }) })
    ?.catch(() => {});
  const retryInMs = p.queue!.add(d.event.id, target, attempts);
  if (d.res) R.send(d.res, R.QUEUED);
  p.options.onForwardQueued?.(d.event, result, attempts, retryInMs, target);
  return false;
}

/** Ends with an error answer (the service retries): the id is released, not recorded. */
function fail(p: Pipeline, d: Pick<Delivery, 'event' | 'res'>, reply: R.Reply, error: unknown): false {
  p.options.dedupe.release(d.event.id);
  if (d.res) R.send(d.res, reply);
  p.options.onError?.(error, d.event);
  return false;
}
