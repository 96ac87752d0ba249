/**
 * The webhook outbox: at-least-once, signed deliveries to the configured endpoint. Each event is
 * frozen as the exact body bytes at the moment it happens and signed with the emulator's webhook
 * key (X-Service-Signature). A delivery is done on 2xx or 409 (the consumer already has it);
 * anything else, a network error or a timeout retries with exponential backoff. Queued deliveries
 * are part of the durable state, so a restart with --state resumes them. Events raised while no
 * endpoint is configured are not queued: there is nowhere to deliver them.
 */
import { createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import { Agent, request } from 'undici';
import { signWebhookBody } from '../../crypto/webhook-signature.js';
import type { EmulatorLogEntry, ResolvedOptions } from './options.js';
import type { CoreState, WebhookDelivery } from './state.js';

/** What the outbox uses of the emulator (its context provides it), named here so the two do not import each other. */
export interface OutboxHost {
  readonly core: CoreState;
  readonly opts: ResolvedOptions;
  readonly isClosed: boolean;
  now(): number;
  iso(ms?: number): string;
  changed(): void;
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

  constructor(emu: OutboxHost) {
    this.emu = emu;
    this.key = createPrivateKey(emu.core.webhookPrivateKeyPem);
  }

  /** An event envelope, serialized once: these are the bytes signed and sent on every attempt. */
  envelope(type: string, data: unknown): { id: string; body: string } {
    const id = `Webhook:${randomUUID()}`;
    return { id, body: JSON.stringify({ id, type, timestamp: this.emu.iso(), data }) };
  }

  /** Queues an event (twice with --duplicate-deliveries, same id); returns its id, if queued. */
  emit(type: string, data: unknown): string | undefined {
    if (!this.emu.core.config.webhookEndpoint) return undefined;
    const { id, body } = this.envelope(type, data);
    const copies = this.emu.opts.duplicateDeliveries ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      const delivery: WebhookDelivery = { key: randomUUID(), id, type, body, attempts: 0, nextAttemptAtMs: this.emu.now() };
      this.emu.core.outbox.push(delivery);
      this.schedule(delivery, 0);
    }
    this.emu.changed();
    return id;
  }

  /**
   * Schedules everything queued after a restart with --state. A restart is a fresh start, so the
   * queue goes out at once instead of waiting out the backoff the previous run had reached.
   */
  resume(): void {
    for (const delivery of this.emu.core.outbox) this.schedule(delivery, 0);
  }

  pendingCount(): number {
    return this.emu.core.outbox.length;
  }

  private schedule(delivery: WebhookDelivery, delayMs: number): void {
    this.emu.later(delayMs, () => void this.attempt(delivery));
  }

  private backoffMs(attempts: number): number {
    const { initialMs, maxMs } = this.emu.opts.webhookRetry;
    return Math.min(maxMs, initialMs * 2 ** Math.max(0, attempts - 1));
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const endpoint = this.emu.core.config.webhookEndpoint;
    const result: DeliveryResult = endpoint ? await this.post(endpoint, delivery.body) : { ok: false, error: 'no webhook endpoint configured' };
    if (this.emu.isClosed) return; // stays queued for the next start
    delivery.attempts += 1;
    const done = result.ok || delivery.attempts >= this.emu.opts.webhookRetry.maxAttempts;
    this.emu.log({
      kind: 'webhook',
      message: `${delivery.type} ${delivery.id} attempt ${delivery.attempts}: ${result.status ?? result.error}${!result.ok && done ? ' (giving up)' : ''}`,
    });
    if (done) {
      this.emu.core.outbox = this.emu.core.outbox.filter((d) => d.key !== delivery.key);
    } else {
      const delay = this.backoffMs(delivery.attempts);
      delivery.nextAttemptAtMs = this.emu.now() + delay;
      this.schedule(delivery, delay);
    }
    this.emu.changed();
  }

  /** One signed POST; ok on 2xx or 409. Never throws. */
  post(endpoint: string, body: string): Promise<DeliveryResult> {
    const { timeoutMs } = this.emu.opts.webhookRetry;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    const work = (async (): Promise<DeliveryResult> => {
      try {
        const res = await request(endpoint, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'x-service-signature': signWebhookBody(body, this.key),
            'user-agent': 'svc-emulator',
          },
          dispatcher: this.agent,
          signal: controller.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        await res.body.dump();
        return { ok: (res.statusCode >= 200 && res.statusCode < 300) || res.statusCode === 409, status: res.statusCode };
      } catch (error) {
        const reason = controller.signal.aborted ? controller.signal.reason : error;
        return { ok: false, error: reason instanceof Error ? reason.message : String(reason) };
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
