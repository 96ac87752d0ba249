/**
 * The listener journal's lines. The first line of every journal is MARKER: svc writes only to a file
 * that starts with it, so a path given by mistake (a text file, package.json) is refused before
 * anything is written. Then one JSON value a line:
 *   "Webhook:…"                          seen: the id is done (nothing else kept of it)
 *   {"p":"Webhook:…","b":body,"h":{…}}   begun: printing/forwarding under way, with what it needs to finish
 *   {"x":"Webhook:…"}                    released: begun but given back to the service (a failed forward)
 *   {"q":"Webhook:…","v":true,"f":{…}}   queued: begun, its forward failed (the app's answer), nothing shown
 *   {"d":"Webhook:…","v":true,"f":{…}}   done, with its verification result and the app's answer
 */
import type { ForwardResult } from '../forward.js';

export const MARKER = '{"svc":"webhook-listen-journal","version":1}';
export const MARKER_LINE = Buffer.from(`${MARKER}\n`, 'utf8');

export type JournalLine =
  | { kind: 'seen'; id: string }
  | { kind: 'begun'; id: string; body: string; headers: Record<string, string> }
  | { kind: 'released'; id: string }
  | { kind: 'queued' | 'done'; id: string; verified?: boolean; answer?: ForwardResult };

/** The line's meaning, or undefined when it is no journal line (damaged, or written by something else). */
export function parseLine(text: string): JournalLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value === 'string') return { kind: 'seen', id: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.p === 'string') {
    if (typeof v.b !== 'string' || typeof v.h !== 'object' || v.h === null) return undefined;
    return { kind: 'begun', id: v.p, body: v.b, headers: v.h as Record<string, string> };
  }
  if (typeof v.x === 'string') return { kind: 'released', id: v.x };
  const id = typeof v.d === 'string' ? v.d : typeof v.q === 'string' ? v.q : undefined;
  if (id === undefined) return undefined;
  return {
    kind: typeof v.d === 'string' ? 'done' : 'queued',
    id,
    ...(typeof v.v === 'boolean' && { verified: v.v }),
    ...(isAnswer(v.f) && { answer: v.f }),
  };
}

export function begunLine(id: string, body: Uint8Array, headers: Record<string, string>): string {
  // The body was parsed as UTF-8 JSON (fatal decoder) before it got here: as a JSON string it
  // round-trips to the same bytes, which the forwarded signature needs.
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return `{"p":${JSON.stringify(id)},"b":${JSON.stringify(text)},"h":${JSON.stringify(headers)}}\n`;
}

/** A queued or done line: "v" verified, "f" the app's answer (no body content, as ForwardResult). */
export function outcomeLine(
  kind: 'q' | 'd',
  id: string,
  outcome: { verified: boolean; forward?: ForwardResult } | undefined,
): string {
  const fields = outcome === undefined ? {} : { v: outcome.verified, ...(outcome.forward && { f: outcome.forward }) };
  return `${JSON.stringify({ [kind]: id, ...fields })}\n`;
}

export const seenLine = (id: string) => `${JSON.stringify(id)}\n`;
export const releasedLine = (id: string) => `{"x":${JSON.stringify(id)}}\n`;

function isAnswer(value: unknown): value is ForwardResult {
  const v = value as Partial<ForwardResult> | null;
  return typeof v === 'object' && v !== null && typeof v.status === 'number' && typeof v.ms === 'number';
}
