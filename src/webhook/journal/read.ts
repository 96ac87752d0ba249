/**
 * Reads a listener's journal (format in format.ts) without taking its lock: a replay from it runs
 * beside the listener that owns the file. Appends are whole lines and compaction is a rename, so a
 * read sees a consistent file, at worst without a torn last line (skipped).
 */
import { readFileSync } from 'node:fs';
import { parseEnvelope } from '../envelope.js';
import type { ForwardResult } from '../forward.js';
import { MARKER_LINE, parseLine } from './format.js';

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
  const data = readFileSync(path);
  if (!data.subarray(0, MARKER_LINE.length).equals(MARKER_LINE))
    throw Object.assign(new Error(`${path} is not a listener journal`), { code: 'NOT_A_JOURNAL' });
  const begun = new Map<string, { b: string; h: Record<string, string> }>();
  const entries = new Map<string, JournalEntry>();
  const settle = (id: string, state: JournalEntry['state'], verified?: boolean, answer?: ForwardResult) => {
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
      ...(verified !== undefined && { verified }),
      ...(answer && { answer }),
    });
  };
  for (const text of data.toString('utf8', MARKER_LINE.length).split('\n')) {
    const line = text === '' ? undefined : parseLine(text);
    if (line === undefined) continue; // a torn last line (an append under way)
    if (line.kind === 'begun') begun.set(line.id, { b: line.body, h: line.headers });
    else if (line.kind === 'done') {
      settle(line.id, 'done', line.verified, line.answer);
      begun.delete(line.id);
    } else if (line.kind === 'queued') settle(line.id, 'failed', line.verified, line.answer);
    else {
      begun.delete(line.id);
      entries.delete(line.id);
    }
  }
  return [...entries.values()];
}
