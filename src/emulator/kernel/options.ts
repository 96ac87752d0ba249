/** startEmulator's options and their defaults (the CLI flags map onto these). */
import { UsageError } from '../../errors.js';

/** One line per request or delivery; never carries bodies, credentials or reveal tokens. */
export interface EmulatorLogEntry {
  kind: 'request' | 'webhook' | 'error' | 'card';
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  message?: string;
}

/** Events the webhook event log keeps when --event-log is not given. */
export const DEFAULT_EVENT_LOG_LIMIT = 1000;

export interface EmulatorOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Load state from this file at start and save it there (atomically) on every change. */
  statePath?: string;
  /** 200 PROCESSING to the first N signed retries of each request (default 0). */
  processingRetries?: number;
  /** Lifetime of new sessions (default 900). */
  sessionTtlSeconds?: number;
  /** Lifetime of challenges and OTP target bundles (default 300). */
  challengeTtlSeconds?: number;
  /** Deliver every webhook twice, same id (default false). */
  duplicateDeliveries?: boolean;
  /** How many webhook events the event log keeps for replay, newest first (default 1000). */
  eventLogLimit?: number;
  /** Webhook backoff: initialMs 1000 doubling up to maxMs 60000, maxAttempts 12, timeoutMs 10000 per attempt. */
  webhookRetry?: { initialMs?: number; maxMs?: number; maxAttempts?: number; timeoutMs?: number };
  /** How the issuer decides new cards (default 'accept'); a cardholder fullName ending in 004 is always rejected. */
  cardIssuance?: 'accept' | 'reject';
  /** Delay before the issuer decides a PROCESSING card (default 1000 ms). */
  cardIssuanceDelayMs?: number;
  /** Lifetime of a panEmbedUrl (default 60 s). */
  revealTtlSeconds?: number;
  /**
   * Single-transaction maximum per currency, in the currency's smallest unit (default
   * DEFAULT_TRANSACTION_LIMITS); a quote or transfer above it is 400 TRANSACTION_SIZE_LIMIT_EXCEEDED.
   * Currencies left out keep their default.
   */
  transactionLimits?: Record<string, number>;
  /** How much faster than the wall clock the emulator's clock runs (default 1; e.g. 60: a minute per second). */
  timeScale?: number;
  /**
   * Whole-request limit: a client still sending its request after this long gets 408 and is
   * dropped (headers have at most 20 s of it), so slow clients cannot hold sockets. Default 30000.
   */
  requestTimeoutMs?: number;
  /** Called per request and per delivery attempt; entries never carry secrets. */
  log?: (entry: EmulatorLogEntry) => void;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  processingRetries: number;
  sessionTtlMs: number;
  challengeTtlMs: number;
  duplicateDeliveries: boolean;
  eventLogLimit: number;
  webhookRetry: { initialMs: number; maxMs: number; maxAttempts: number; timeoutMs: number };
  cardIssuance: 'accept' | 'reject';
  cardIssuanceDelayMs: number;
  revealTtlMs: number;
  timeScale: number;
  requestTimeoutMs: number;
  transactionLimits: Record<string, number>;
  log?: (entry: EmulatorLogEntry) => void;
}

/**
 * The spec says the single-transaction maximum is configured per corridor or currency without
 * giving a value; these are the emulator's: 100,000.00 USD or EUR, 2,000,000.00 MXN.
 */
export const DEFAULT_TRANSACTION_LIMITS: Readonly<Record<string, number>> = {
  USD: 10_000_000,
  EUR: 10_000_000,
  MXN: 200_000_000,
};

function transactionLimits(value: Record<string, number> | undefined): Record<string, number> {
  const out = { ...DEFAULT_TRANSACTION_LIMITS };
  for (const [code, max] of Object.entries(value ?? {})) out[code] = count(max, 0, `transactionLimits.${code}`, 1);
  return out;
}

/** The largest --time-scale: beyond it a second of wall time is more than a day of emulator time. */
export const MAX_TIME_SCALE = 100_000;

function timeScale(value: number | undefined): number {
  const n = value ?? 1;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0 || n > MAX_TIME_SCALE) {
    throw new UsageError(`timeScale must be a number above 0 and at most ${MAX_TIME_SCALE}`, { field: 'timeScale' });
  }
  return n;
}

function count(value: number | undefined, fallback: number, field: string, min = 0): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${field} must be an integer >= ${min}`, { field });
  return n;
}

export function resolveOptions(o: EmulatorOptions): ResolvedOptions {
  const retry = o.webhookRetry ?? {};
  return {
    host: o.host ?? '127.0.0.1',
    port: count(o.port, 4010, 'port'),
    processingRetries: count(o.processingRetries, 0, 'processingRetries'),
    sessionTtlMs: count(o.sessionTtlSeconds, 900, 'sessionTtlSeconds', 1) * 1000,
    challengeTtlMs: count(o.challengeTtlSeconds, 300, 'challengeTtlSeconds', 1) * 1000,
    duplicateDeliveries: o.duplicateDeliveries ?? false,
    eventLogLimit: count(o.eventLogLimit, DEFAULT_EVENT_LOG_LIMIT, 'eventLogLimit', 1),
    webhookRetry: {
      initialMs: count(retry.initialMs, 1000, 'webhookRetry.initialMs', 1),
      maxMs: count(retry.maxMs, 60_000, 'webhookRetry.maxMs', 1),
      maxAttempts: count(retry.maxAttempts, 12, 'webhookRetry.maxAttempts', 1),
      timeoutMs: count(retry.timeoutMs, 10_000, 'webhookRetry.timeoutMs', 1),
    },
    cardIssuance: o.cardIssuance ?? 'accept',
    cardIssuanceDelayMs: count(o.cardIssuanceDelayMs, 1000, 'cardIssuanceDelayMs'),
    revealTtlMs: count(o.revealTtlSeconds, 60, 'revealTtlSeconds', 1) * 1000,
    timeScale: timeScale(o.timeScale),
    requestTimeoutMs: count(o.requestTimeoutMs, 30_000, 'requestTimeoutMs', 1),
    transactionLimits: transactionLimits(o.transactionLimits),
    ...(o.log ? { log: o.log } : {}),
  };
}
