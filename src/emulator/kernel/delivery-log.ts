/**
 * The delivery log: every webhook delivery the outbox made (a queued copy of an event, a replay,
 * the sandbox's test webhook), with where it went, the receiver's last answer, its attempts and
 * the signature header it carried, for the dashboard's Webhooks view. The event log
 * (event-log.ts) keeps the events themselves; this keeps how each delivery of them went.
 * In memory and bounded: the newest MAX_DELIVERIES are kept.
 */

const MAX_DELIVERIES = 500;

export interface DeliveryRecord {
  /** The outbox's key of this delivery (one event may have several: duplicates, resends). */
  key: string;
  eventId: string;
  type: string;
  target: string;
  attempts: number;
  /** The receiver's answer to the last attempt, or the network error instead. */
  responseStatus?: number;
  error?: string;
  /** X-Service-Signature of the last attempt. */
  signature: string;
  state: 'delivered' | 'retrying' | 'failed';
  /** Emulator time of the last attempt (ISO 8601). */
  lastAttemptAt: string;
}

export type DeliveryListener = (record: DeliveryRecord) => void;

export class DeliveryLog {
  private readonly records = new Map<string, DeliveryRecord>();
  private readonly listeners = new Set<DeliveryListener>();

  /** Notes one attempt of a delivery (its record made on the first). */
  attempted(record: Omit<DeliveryRecord, 'attempts'>): void {
    const previous = this.records.get(record.key);
    const next: DeliveryRecord = { ...record, attempts: (previous?.attempts ?? 0) + 1 };
    if (!next.error) delete next.error;
    if (previous) this.records.delete(record.key); // newest last
    this.records.set(record.key, next);
    if (this.records.size > MAX_DELIVERIES) this.records.delete(this.records.keys().next().value!);
    for (const listener of this.listeners) listener(next);
  }

  /** Newest first. */
  list(): DeliveryRecord[] {
    return [...this.records.values()].reverse();
  }

  subscribe(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
