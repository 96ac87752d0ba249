/**
 * Human renderings shared by the otp and session commands: "expires in" and a session summary.
 * Kept free of colour decisions except through the UI's chalk instance.
 */
import type { UI } from '../ui.js';

/** "14m 05s", "2h 03m", or "expired 3m ago": relative times read faster than ISO stamps. */
export function expiresIn(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  const text = duration(Math.abs(ms));
  return ms > 0 ? text : `expired ${text} ago`;
}

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d`;
}

export interface SessionLike {
  id: string;
  accountId: string;
  type: string;
  nickname: string;
  expiresAt: string;
}

/** The stdout summary after a login or refresh: what a user needs to continue. */
export function printSessionSummary(ui: UI, session: SessionLike, now: number): void {
  ui.out(`Session:    ${session.id}`);
  ui.out(`Account:    ${session.accountId}`);
  ui.out(`Credential: ${session.type} ${session.nickname}`);
  ui.out(`Expires in: ${expiresIn(session.expiresAt, now)} (${session.expiresAt})`);
}
