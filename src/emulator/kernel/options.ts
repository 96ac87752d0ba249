/**
 * The kernel's own startEmulator options (listening, the state file, the clock, webhook delivery
 * and its event log) and their `emulator start` flags. Areas declare theirs in their own folder;
 * ../options.ts lists them all.
 */
import { UsageError } from '../../errors.js';
import { count, integerText, type AreaOptions } from './option.js';

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
const DEFAULT_EVENT_LOG_LIMIT = 1000;

/** The largest --event-log: each event keeps its body, and --state rewrites the file on every change. */
const MAX_EVENT_LOG = 100_000;

/** The largest --time-scale: beyond it a second of wall time is more than a day of emulator time. */
const MAX_TIME_SCALE = 100_000;

export interface KernelOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Load state from this file at start and save it there (atomically) on every change. */
  statePath?: string;
  /** Deliver every webhook twice, same id (default false). */
  duplicateDeliveries?: boolean;
  /** How many webhook events the event log keeps for replay, newest first (default 1000). */
  eventLogLimit?: number;
  /** Webhook backoff: initialMs 1000 doubling up to maxMs 60000, maxAttempts 12, timeoutMs 10000 per attempt. */
  webhookRetry?: { initialMs?: number; maxMs?: number; maxAttempts?: number; timeoutMs?: number };
  /** How much faster than the wall clock the emulator's clock runs (default 1; e.g. 60: a minute per second). */
  timeScale?: number;
  /**
   * Whole-request limit: a client still sending its request after this long gets 408 and is
   * dropped (headers have at most 20 s of it), so slow clients cannot hold sockets. Default 30000.
   */
  requestTimeoutMs?: number;
  /** Called per request and per delivery attempt; entries never carry secrets. */
  log?: (entry: EmulatorLogEntry) => void;
  /** Told what the operator must hear of (saving the --state file fails, then works again); default: a line on stderr. */
  warn?: (line: string) => void;
}

export interface KernelResolved {
  host: string;
  port: number;
  duplicateDeliveries: boolean;
  eventLogLimit: number;
  webhookRetry: { initialMs: number; maxMs: number; maxAttempts: number; timeoutMs: number };
  timeScale: number;
  requestTimeoutMs: number;
  log?: (entry: EmulatorLogEntry) => void;
  warn: (line: string) => void;
}

function timeScale(value: number | undefined): number {
  const n = value ?? 1;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0 || n > MAX_TIME_SCALE) {
    throw new UsageError(`timeScale must be a number above 0 and at most ${MAX_TIME_SCALE}`, { input: 'timeScale' });
  }
  return n;
}

/** A positive decimal number up to MAX_TIME_SCALE (the clock's speed factor). */
function factor(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+(?:\.\d+)?$/.test(value) || !(n > 0) || n > MAX_TIME_SCALE) {
    throw new UsageError(
      `${flag} must be a number above 0 and at most ${MAX_TIME_SCALE} (e.g. 60: a minute per second), got ${JSON.stringify(value)}`,
      { input: flag },
    );
  }
  return n;
}

export const kernelOptions = {
  flags: {
    host: { syntax: '--host <host>', description: 'interface to listen on', default: '127.0.0.1', parse: (t) => t },
    port: {
      syntax: '--port <port>',
      description: 'port to listen on (0 picks a free one)',
      default: '4010',
      parse: integerText(0, 65535),
    },
    statePath: {
      syntax: '--state <file>',
      description: 'load state from this file at start and save it there on every change',
      parse: (t) => t,
    },
    duplicateDeliveries: {
      syntax: '--duplicate-deliveries',
      description: 'deliver every webhook twice (same id) to exercise consumer dedupe',
    },
    eventLogLimit: {
      syntax: '--event-log <n>',
      description: `how many webhook events to keep for \`svc webhook replay\`, the newest (default ${DEFAULT_EVENT_LOG_LIMIT})`,
      parse: integerText(1, MAX_EVENT_LOG),
    },
    timeScale: {
      syntax: '--time-scale <factor>',
      description: 'run the emulator clock this many times faster (60: the 6-minute delays take 6 s)',
      default: '1',
      parse: factor,
    },
  },
  resolve(o) {
    const retry = o.webhookRetry ?? {};
    return {
      host: o.host ?? '127.0.0.1',
      port: count(o.port, 4010, 'port'),
      duplicateDeliveries: o.duplicateDeliveries ?? false,
      eventLogLimit: count(o.eventLogLimit, DEFAULT_EVENT_LOG_LIMIT, 'eventLogLimit', 1),
      webhookRetry: {
        initialMs: count(retry.initialMs, 1000, 'webhookRetry.initialMs', 1),
        maxMs: count(retry.maxMs, 60_000, 'webhookRetry.maxMs', 1),
        maxAttempts: count(retry.maxAttempts, 12, 'webhookRetry.maxAttempts', 1),
        timeoutMs: count(retry.timeoutMs, 10_000, 'webhookRetry.timeoutMs', 1),
      },
      timeScale: timeScale(o.timeScale),
      requestTimeoutMs: count(o.requestTimeoutMs, 30_000, 'requestTimeoutMs', 1),
      ...(o.log ? { log: o.log } : {}),
      warn: o.warn ?? ((line) => process.stderr.write(`${line}\n`)),
    };
  },
} satisfies AreaOptions<KernelOptions, KernelResolved>;
