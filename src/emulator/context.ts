/**
 * The shared context every handler receives: durable state, resolved options, the in-memory
 * short-lived tables (pending signed requests, OTP targets, reveal links) and the services
 * (webhook outbox, state file, timers). One per running emulator; nothing is a module singleton.
 */
import type { StateFile } from './persistence.js';
import type { EmulatorState, SessionRec } from './state.js';
import type { WebhookOutbox } from './webhooks.js';
import type { PendingRequest } from './signed-retry.js';
import type { PasskeyChallenge } from './auth-passkey.js';

export interface ResolvedOptions {
  host: string;
  port: number;
  processingRetries: number;
  sessionTtlMs: number;
  challengeTtlMs: number;
  duplicateDeliveries: boolean;
  webhookRetry: { initialMs: number; maxMs: number; maxAttempts: number; timeoutMs: number };
  cardIssuance: 'accept' | 'reject';
  cardIssuanceDelayMs: number;
  revealTtlMs: number;
  log?: (entry: EmulatorLogEntry) => void;
}

/** One line per request or delivery; never carries bodies, credentials or reveal tokens. */
export interface EmulatorLogEntry {
  kind: 'request' | 'webhook' | 'error';
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  message?: string;
}

export interface OtpTargetRec {
  privateKey: string;
  expiresAtMs: number;
}

export class EmulatorContext {
  readonly state: EmulatorState;
  readonly opts: ResolvedOptions;
  readonly file: StateFile | undefined;
  /** http://host:port, set once listening (reveal links point here). */
  origin = '';
  readonly pending = new Map<string, PendingRequest>();
  /** Unused OTP encryption targets per credential (each bundle is good for one issuance). */
  readonly otpTargets = new Map<string, OtpTargetRec[]>();
  readonly reveals = new Map<string, { cardId: string; expiresAtMs: number }>();
  /** Passkey challenges by requestId (one verify each). */
  readonly passkeyChallenges = new Map<string, PasskeyChallenge>();
  /** Session public key → session ids, so a stamp's key is authorized without a scan. */
  readonly sessionKeys = new Map<string, Set<string>>();
  outbox!: WebhookOutbox;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(state: EmulatorState, opts: ResolvedOptions, file: StateFile | undefined) {
    this.state = state;
    this.opts = opts;
    this.file = file;
    for (const session of state.sessions.values()) this.indexSession(session);
  }

  now(): number {
    return Date.now();
  }

  iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** Durable state changed: save it (when a state file is in use). */
  changed(): void {
    this.file?.changed();
  }

  log(entry: EmulatorLogEntry): void {
    this.opts.log?.(entry);
  }

  indexSession(session: SessionRec): void {
    let ids = this.sessionKeys.get(session.publicKey);
    if (!ids) this.sessionKeys.set(session.publicKey, (ids = new Set()));
    ids.add(session.id);
  }

  isSessionActive(session: SessionRec): boolean {
    return session.revokedAtMs === undefined && session.expiresAtMs > this.now();
  }

  /** True when publicKey (compressed hex) is the key of an active session of accountId. */
  keyHasActiveSession(publicKey: string, accountId: string): boolean {
    for (const id of this.sessionKeys.get(publicKey) ?? []) {
      const session = this.state.sessions.get(id);
      if (session && session.accountId === accountId && this.isSessionActive(session)) return true;
    }
    return false;
  }

  /** setTimeout that close() cancels; callbacks never run after close. */
  later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(timer);
  }

  stopTimers(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
