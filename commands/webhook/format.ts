/** Terminal lines for `svc webhook listen`: colour on top of src/webhook/render.ts's parts. */
import type { ChalkInstance } from 'chalk';
import type { EventParts, Tone } from '../../src/webhook/render.js';
import type { WebhookEvent } from '../../src/webhook/envelope.js';
import type { ForwardResult } from '../../src/webhook/forward.js';

export function formatEvent(c: ChalkInstance, parts: EventParts, forward: ForwardResult | undefined, forwardUrl: string | undefined): string {
  const head = [
    c.dim(parts.time),
    c.bold(parts.type),
    parts.cardId && parts.cardId !== parts.detail ? parts.cardId : undefined,
    parts.detail ? c.cyan(parts.detail) : undefined,
    c.dim(`[${parts.deliveryId}]`),
  ].filter(Boolean).join('  ');
  const lines = [head];
  if (parts.meaning) lines.push(`  ${toneColour(c, parts.tone)(`→ ${parts.meaning}`)}`);
  if (forward && forwardUrl) lines.push(c.dim(`  ↪ forwarded to ${forwardUrl}: ${forward.status} in ${formatMs(forward.ms)}`));
  return lines.join('\n');
}

export function formatDuplicate(c: ChalkInstance, event: WebhookEvent): string {
  return c.dim(`duplicate  ${event.type}  [${event.id}] already processed; answered 200, not shown again`);
}

export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

function toneColour(c: ChalkInstance, tone: Tone): ChalkInstance {
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
      return c.reset;
  }
}
