/** Terminal lines for `svc webhook listen`: colour on top of src/webhook/render.ts's parts. */
import type { ChalkInstance } from 'chalk';
import type { EventParts, Tone } from '../../src/webhook/render.js';
import type { WebhookEvent } from '../../src/webhook/envelope.js';
import type { ForwardResult } from '../../src/webhook/forward.js';
import { nextStepCommand } from '../next-step.js';

/**
 * A line of `[text, colour]` fields, two spaces apart. Ids are never shortened: a user copies them
 * from here into the next command. On a terminal too narrow for the whole line, a list the meaning
 * line spells out becomes its count, and the fields that still do not fit go on an indented
 * continuation line (a field is never cut). Width unknown (a pipe, a log file): one line, whole.
 */
function fit(fields: Field[], columns: number): string {
  const width = (texts: string[]) => texts.reduce((sum, text) => sum + text.length, 2 * (texts.length - 1));
  if (columns <= 0 || width(fields.map(([text]) => text)) <= columns)
    return fields.map(([text, paint]) => paint(text)).join('  ');
  const lines: string[][] = [[]];
  let used = 0;
  for (const [text, paint, brief] of fields) {
    const shown = brief ?? text;
    const line = lines[lines.length - 1]!;
    const extra = (line.length > 0 ? 2 : 0) + shown.length;
    if (line.length > 0 && used + extra > columns) {
      lines.push([paint(shown)]);
      used = 2 + shown.length; // the continuation line is indented by two spaces
    } else {
      line.push(paint(shown));
      used += extra;
    }
  }
  return lines.map((l, i) => (i === 0 ? '' : '  ') + l.join('  ')).join('\n');
}

/** Text, colour, and what to show instead on a narrow terminal (default: the text; ids are never shortened). */
type Field = [string, (s: string) => string, string?];

/** Said on the event line of a delivery a crash interrupted (--store): it may have been shown before. */
const REDELIVERED_NOTE = '(redelivered after a crash: may have been shown before)';

/** The event line, then its meaning and the forward result, each on a line of its own. */
export function formatEvent(
  c: ChalkInstance,
  parts: EventParts,
  forward: ForwardResult | undefined,
  forwardUrl: string | undefined,
  columns = 0,
  redelivered = false,
  verified = true,
  attempt?: number,
): string {
  const fields: Field[] = [
    [parts.time, c.dim],
    [parts.type, c.bold],
  ];
  if (parts.cardId && parts.cardId !== parts.detail) fields.push([parts.cardId, plain]);
  if (parts.detail) fields.push([parts.detail, c.cyan, parts.briefDetail]);
  fields.push([`[${parts.deliveryId}]`, c.dim]);
  // What happened to it, on the event line itself: its signature checked or not.
  fields.push(verified ? ['verified', c.green] : ['UNVERIFIED', c.red]);
  if (redelivered) fields.push([REDELIVERED_NOTE, c.yellow, 'redelivered']);
  const lines = [fit(fields, columns)];
  if (parts.meaning) lines.push(`  ${toneColour(c, parts.tone)(`→ ${meaningText(parts)}`)}`);
  if (forward && forwardUrl) lines.push(c.dim(`  ${formatForward(forward, forwardUrl, attempt)}`));
  return lines.join('\n');
}

/** The meaning with its next step as a command (`card is live: svc cards reveal <id>`), then a late note. */
export function meaningText(parts: Pick<EventParts, 'meaning' | 'next' | 'late'>): string {
  const next = parts.next ? `: ${nextStepCommand(parts.next)}` : '';
  return `${parts.meaning}${next}${parts.late ? ` ${parts.late}` : ''}`;
}

export function formatForward(forward: ForwardResult, forwardUrl: string, attempt?: number): string {
  const note = forward.status === 409 ? ' (the app already had it; answered 409)' : '';
  const retried = attempt !== undefined && attempt > 1 ? ` on local attempt ${attempt}` : '';
  return `↪ forwarded to ${forwardUrl}: ${forward.status} in ${formatMs(forward.ms)}${retried}${note}`;
}

export function formatDuplicate(c: ChalkInstance, event: WebhookEvent, columns = 0): string {
  return c.dim(
    fit(
      [
        ['duplicate', plain],
        [event.type, plain],
        [`[${event.id}] already processed; answered 200, not shown again`, plain],
      ],
      columns,
    ),
  );
}

export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

const plain = (s: string) => s;

function toneColour(c: ChalkInstance, tone: Tone): (s: string) => string {
  switch (tone) {
    case 'live':
      return c.green;
    case 'rejected':
      return c.red;
    case 'closed':
      return c.yellow;
    case 'bindings':
      return c.magenta;
    default:
      return plain; // not c.reset: that wraps the text in escape codes that change nothing
  }
}
