/**
 * The webhook outbox: at-least-once, signed deliveries to the configured endpoint. Each event is
 * frozen as the exact body bytes at the moment it happens and signed with the emulator's webhook
 * key (X-Service-Signature). A delivery is done on 2xx or 409 (the consumer already has it);
 * anything else, a network error or a timeout retries with exponential backoff. Queued deliveries
 * are part of the durable state, so a restart with --state resumes them. Every event also goes
 * into the event log (event-log.ts); one raised while no endpoint is configured is kept there,
 * undelivered, for a replay to deliver later.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { Agent, request } from 'undici';
import { backoffMs } from '../../backoff.js';
import { signWebhookBody } from '../../crypto/webhook-signature.js';
import { DeliveryLog } from './delivery-log.js';
import { EventLog, type EventLogHost, type LoggedEvent } from './event-log.js';
import { exchangeRecorder } from './exchange-log.js';
import type { EmulatorLogEntry } from './options.js';
import type { CoreState, WebhookDelivery } from './state.js';
import { newId, newUuid } from './ids.js';

/** What the outbox uses of the emulator (EmulatorContext provides it), named here so the two do not import each other. */
export interface OutboxHost extends EventLogHost {
  readonly core: CoreState;
  readonly isClosed: boolean;
  now(): number;
  iso(ms?: number): string;
  log(entry: EmulatorLogEntry): void;
  later(ms: number, fn: () => void): void;
}

export interface DeliveryResult {
  ok: boolean;
  status?: number;
  error?: string;
}

export class WebhookOutbox {
  private readonly emu: OutboxHost;
  private readonly key: KeyObject;
  private readonly agent = new Agent({ keepAliveTimeout: 2_000, connections: 16 });
  private readonly inflight = new Map<AbortController, Promise<unknown>>();
  /** Every event raised, delivered or not (bounded; see event-log.ts). */
  readonly events: EventLog;
  /** How each delivery went (the dashboard's Webhooks view). */
  readonly deliveries = new DeliveryLog();

  constructor(emu: OutboxHost) {
    this.emu = emu;
    this.key = createPrivateKey(emu.core.webhookPrivateKeyPem);
    this.events = new EventLog(emu);
  }

  /** An event envelope, serialized once: these are the bytes signed and sent on every attempt. */
  envelope(type: string, data: unknown): { id: string; timestamp: string; body: string } {
    const id = newId('Webhook');
    const timestamp = this.emu.iso();
    const body = JSON.stringify({ id, type, timestamp, data });
    exchangeRecorder?.webhook(body);
    return { id, timestamp, body };
  }

  /**
   * Logs an event and queues it (twice with --duplicate-deliveries, same id); with no endpoint it
   * is only logged, undelivered. Returns its id.
   */
  emit(type: string, data: unknown): string {
    return this.raise(type, data).id;
  }

  /**
   * Like emit, but the first copy's first attempt is made now and its answer returned: the
   * platform's answer decides (an incoming payment's approval). Undefined with no endpoint.
   * `accepts` are answers that end the delivery like a 2xx; any other failure is retried as usual.
   */
  ask(type: string, data: unknown, accepts: number[]): Promise<DeliveryResult | undefined> {
    const { first } = this.raise(type, data, accepts);
    return first ? this.attempt(first) : Promise.resolve(undefined);
  }

  private raise(type: string, data: unknown, accepts?: number[]): { id: string; first?: WebhookDelivery } {
    const { id, timestamp, body } = this.envelope(type, data);
    const endpoint = this.emu.core.config.webhookEndpoint;
    this.events.record({ id, type, timestamp, body, delivery: endpoint ? 'pending' : 'undelivered' });
    if (!endpoint) return { id };
    const copies = this.emu.opts.duplicateDeliveries ? 2 : 1;
    let first: WebhookDelivery | undefined;
    for (let i = 0; i < copies; i++) {
      const delivery: WebhookDelivery = {
        key: newUuid(),
        id,
        type,
        body,
        attempts: 0,
        nextAttemptAtMs: this.emu.now(),
        ...(accepts ? { accepts } : {}),
      };
      this.emu.core.outbox.push(delivery);
      if (accepts && i === 0) first = delivery;
      else this.schedule(delivery, 0);
    }
    this.emu.changed();
    return { id, ...(first ? { first } : {}) };
  }

  /**
   * Schedules everything queued after a restart with --state. A restart is a fresh start, so the
   * queue goes out at once instead of waiting out the backoff the previous run had reached.
   */
  resume(): void {
    for (const delivery of this.emu.core.outbox) this.schedule(delivery, 0);
  }

  /**
   * Delivers a logged event again: the same bytes (so the same envelope id), freshly signed, as a
   * new queued delivery whose first attempt is made now; if it fails, the usual backoff retries it.
   * `endpoint` is where to (a replay's --to); otherwise the configured endpoint at each attempt.
   */
  redeliver(event: LoggedEvent, endpoint?: string): Promise<DeliveryResult> {
    return this.attempt(this.queueCopy(event, endpoint));
  }

  /** Like redeliver, but its first attempt is only scheduled (now), not awaited. */
  requeue(event: LoggedEvent, endpoint?: string): void {
    this.schedule(this.queueCopy(event, endpoint), 0);
  }

  private queueCopy(event: LoggedEvent, endpoint: string | undefined): WebhookDelivery {
    const delivery: WebhookDelivery = {
      key: newUuid(),
      id: event.id,
      type: event.type,
      body: event.body,
      attempts: 0,
      nextAttemptAtMs: this.emu.now(),
    };
    if (endpoint !== undefined) delivery.endpoint = endpoint;
    this.emu.core.outbox.push(delivery);
    this.emu.changed();
    return delivery;
  }

  /**
   * Sends an event once per copy, now, to `endpoint`, without queueing a retry: the sandbox's test
   * webhook, whose answer is the delivery's outcome. Logged like any other event.
   */
  async sendNow(
    type: string,
    data: unknown,
    endpoint: string,
    copies: number,
  ): Promise<{ id: string; results: DeliveryResult[] }> {
    const { id, timestamp, body } = this.envelope(type, data);
    this.events.record({ id, type, timestamp, body, delivery: 'pending' });
    const results: DeliveryResult[] = [];
    for (let i = 0; i < copies; i++) {
      const result = await this.post(endpoint, body);
      this.events.noteAttempt(id, result.ok, true);
      this.noteDelivery({ key: newUuid(), id, type }, endpoint, result, result.ok ? 'delivered' : 'failed');
      results.push(result);
    }
    return { id, results };
  }

  private noteDelivery(
    delivery: Pick<WebhookDelivery, 'key' | 'id' | 'type'>,
    target: string,
    result: DeliveryResult & { signature: string },
    state: 'delivered' | 'retrying' | 'failed',
  ): void {
    this.deliveries.attempted({
      key: delivery.key,
      eventId: delivery.id,
      type: delivery.type,
      target,
      ...(result.status !== undefined ? { responseStatus: result.status } : { error: result.error ?? 'no answer' }),
      signature: result.signature,
      state,
      lastAttemptAt: this.emu.iso(),
    });
  }

  pendingCount(): number {
    return this.emu.core.outbox.length;
  }

  private schedule(delivery: WebhookDelivery, delayMs: number): void {
    this.emu.later(delayMs, () => void this.attempt(delivery));
  }

  private async attempt(delivery: WebhookDelivery): Promise<DeliveryResult> {
    const endpoint = delivery.endpoint ?? this.emu.core.config.webhookEndpoint;
    const sent = endpoint ? await this.post(endpoint, delivery.body) : undefined;
    const result: DeliveryResult = sent ?? { ok: false, error: 'no webhook endpoint configured' };
    if (this.emu.isClosed) return result; // stays queued for the next start
    delivery.attempts += 1;
    const ok = result.ok || (result.status !== undefined && delivery.accepts?.includes(result.status) === true);
    const done = ok || delivery.attempts >= this.emu.opts.webhookRetry.maxAttempts;
    if (sent) this.noteDelivery(delivery, endpoint!, sent, ok ? 'delivered' : done ? 'failed' : 'retrying');
    this.events.noteAttempt(delivery.id, ok, done);
    this.emu.log({
      kind: 'webhook',
      message: `${delivery.type} ${delivery.id} attempt ${delivery.attempts}: ${result.status ?? result.error}${!ok && done ? ' (giving up)' : ''}`,
    });
    if (done) {
      this.emu.core.outbox = this.emu.core.outbox.filter((d) => d.key !== delivery.key);
    } else {
      const delay = backoffMs(this.emu.opts.webhookRetry, delivery.attempts - 1);
      delivery.nextAttemptAtMs = this.emu.now() + delay;
      this.schedule(delivery, delay);
    }
    this.emu.changed();
    return result;
  }

  /** One signed POST; ok on 2xx or 409. Never throws. Also gives the signature header it sent. */
  post(endpoint: string, body: string): Promise<DeliveryResult & { signature: string }> {
    const { timeoutMs } = this.emu.opts.webhookRetry;
    const signature = signWebhookBody(body, this.key);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    const work = (async (): Promise<DeliveryResult & { signature: string }> => {
      try {
        const res = await request(endpoint, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'x-service-signature': signature,
            'user-agent': 'svc-emulator',
          },
          dispatcher: this.agent,
          signal: controller.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        await res.body.dump();
        return {
          ok: (res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 409,
          status: res.statusCode,
          signature,
        };
      } catch (error) {
        const reason = controller.signal.aborted ? controller.signal.reason : error;
        return { ok: false, error: reason instanceof Error ? reason.message : String(reason), signature };
      } finally {
        clearTimeout(timer);
        this.inflight.delete(controller);
      }
    })();
    this.inflight.set(controller, work);
    return work;
  }

  /** Aborts deliveries in flight (they stay queued) and closes connections. */
  async close(): Promise<void> {
    const pending = [...this.inflight.entries()];
    for (const [controller] of pending) controller.abort(new Error('emulator closing'));
    await Promise.allSettled(pending.map(([, work]) => work));
    await this.agent.destroy().catch(() => undefined);
  }
}
