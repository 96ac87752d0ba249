/**
 * The webhook envelope (spec "Events"): {id, type, timestamp, data}. Parsing returns a reason string
 * instead of throwing: malformed input is an expected answer (400) on the receiver's hot path.
 */
import { isDateTime } from '../date-time.js';

export interface WebhookEvent {
  /** `Webhook:<uuid>`, unique per delivery; the idempotency key. */
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

// fatal: a body that is not UTF-8 is malformed, not silently patched with U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The event, or why the body is not a valid envelope. */
export function parseEnvelope(body: Uint8Array): WebhookEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(body));
  } catch {
    return 'body is not valid UTF-8 JSON';
  }
  if (!isObject(value)) return 'body is not a JSON object';
  const { id, type, timestamp, data } = value;
  if (typeof id !== 'string' || id === '') return 'envelope field "id" must be a non-empty string';
  if (typeof type !== 'string' || type === '') return 'envelope field "type" must be a non-empty string';
  if (typeof timestamp !== 'string' || !isDateTime(timestamp))
    return 'envelope field "timestamp" must be a date-time string';
  if (!isObject(data)) return 'envelope field "data" must be an object';
  return value as unknown as WebhookEvent;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
