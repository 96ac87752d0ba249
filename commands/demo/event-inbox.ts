/**
 * Verified webhook events as they arrive, and a wait for the next one that matches. Events that
 * arrive before anyone waits are kept, so a fast delivery is never missed; a wait that sees nothing
 * in time fails with what it was waiting for.
 */
import { SvcError } from '../../src/errors.js';
import type { WebhookEvent } from '../../src/webhook/envelope.js';

type Match = (event: WebhookEvent) => boolean;

export class EventInbox {
  private readonly pending: WebhookEvent[] = [];
  private waiter: { match: Match; resolve(e: WebhookEvent): void } | undefined;

  push(event: WebhookEvent): void {
    if (this.waiter?.match(event)) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(event);
    } else {
      this.pending.push(event);
    }
  }

  next(what: string, match: Match, timeoutMs: number, signal?: AbortSignal): Promise<WebhookEvent> {
    const index = this.pending.findIndex(match);
    if (index !== -1) return Promise.resolve(this.pending.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiter = undefined;
      };
      const onAbort = () => {
        done();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        done();
        reject(new SvcError(`No ${what} webhook arrived within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiter = {
        match,
        resolve: (e) => {
          done();
          resolve(e);
        },
      };
    });
  }
}
