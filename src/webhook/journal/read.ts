/**
 * Reads a listener's journal (format in journal-file.ts) without taking its lock: a replay from it runs
 * beside the listener that owns the file. Appends are whole lines and compaction is a rename, so a
 * read sees a consistent file, at worst without a torn last line (skipped).
 */
import { readFileSync } from 'node:fs';
import { parseEnvelope } from '../envelope.js';
import type { ForwardResult } from '../forward.js';

export interface JournalEntry {
  id: string;
  type: string;
  /** The body exactly as received (the signed bytes). */
  body: Buffer;
  /** The service's headers as the listener forwarded them (the signature among them). */
  headers: Record<string, string>;
  /** `done`: shown and recorded; `failed`: its forward failed and the listener retries it (or a crash left it so). */
  state: 'done' | 'failed';
  /** Whether the listener checked its signature (false when it verified nothing); undefined if not journaled. */
  verified?: boolean;
  /** The app's last answer, if it was forwarded. */
  answer?: ForwardResult;
}

/** Entries oldest first (by their latest line): the kept done deliveries and the failed ones. */
export function readJournal(path: string): JournalEntry[] {
  const text = readFileSync(path, 'utf8');
  const begun = new Map<string, { b: string; h: Record<string, string> }>();
  const entries = new Map<string, JournalEntry>();
  const settle = (id: string, state: JournalEntry['state'], v: unknown, f: unknown) => {
    const started = begun.get(id);
    entries.delete(id);
    if (started === undefined) return;
    const body = Buffer.from(started.b, 'utf8');
    const event = parseEnvelope(body);
    entries.set(id, {
      id,
      type: typeof event === 'string' ? '?' : event.type,
      body,
      headers: started.h,
      state,
      ...(typeof v === 'boolean' && { verified: v }),
      ...(isAnswer(f) && { answer: f }),
    });
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a torn last line (an append under way)
    }
    if (typeof value === 'string') {
      begun.delete(value);
      entries.delete(value);
    } else if (value === null || typeof value !== 'object') continue;
    else if (typeof value.p === 'string' && typeof value.b === 'string' && typeof value.h === 'object') {
      begun.set(value.p, { b: value.b, h: value.h as Record<string, string> });
    } else if (typeof value.d === 'string') {
      settle(value.d, 'done', value.v, value.f);
      begun.delete(value.d);
    } else if (typeof value.q === 'string') settle(value.q, 'failed', value.v, value.f);
    else if (typeof value.x === 'string') {
      begun.delete(value.x);
      entries.delete(value.x);
    }
  }
  return [...entries.values()];
}

function isAnswer(value: unknown): value is ForwardResult {
  const v = value as Partial<ForwardResult> | null;
  return typeof v === 'object' && v !== null && typeof v.status === 'number' && typeof v.ms === 'number';
}
