/**
 * The reveal step runs the real `cards reveal` command, but with its stdout captured: the demo's
 * output may be screen-shared or kept in CI logs, so it shows only that a URL came back, masked.
 */
import { PassThrough } from 'node:stream';
import { redirected, type Deps } from '../deps.js';
import type { DemoContext } from './context.js';
import type { Narrator } from './narrator.js';
import { run as reveal } from '../cards/reveal.js';

/** Origin and the first path segment only; the token that makes it a secret is hidden. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    const first = u.pathname.split('/').filter(Boolean)[0];
    return `${u.origin}/${first ? `${first}/` : ''}… (${url.length} characters, hidden)`;
  } catch {
    return `(${url.length} characters, hidden)`;
  }
}

/**
 * Runs a command with its result captured as JSON and handed back: nothing of it reaches the
 * demo's output (a secret URL, or a hint naming the demo's emulator, gone once the demo ends).
 */
export async function quietly<T>(ctx: DemoContext, command: (deps: Deps) => Promise<void>): Promise<T> {
  const captured = new PassThrough();
  const chunks: Buffer[] = [];
  captured.on('data', (c: Buffer) => chunks.push(c));
  const deps = redirected(ctx.deps, {
    io: { ...ctx.deps.io, stdout: captured, stdoutIsTTY: false },
    globals: { ...ctx.deps.globals, json: true },
  });
  await command(deps);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

export async function revealMasked(ctx: DemoContext, narrator: Narrator, cardId: string): Promise<void> {
  const { panEmbedUrl, expiresAt } = await quietly<{ panEmbedUrl: string; expiresAt: string }>(ctx, (deps) =>
    reveal({ card: cardId, open: false }, deps),
  );
  narrator.line(`Obtained a panEmbedUrl for ${cardId}: ${maskUrl(panEmbedUrl)}`);
  // A card of the demo's own emulator is named only when that emulator stays up (--keep).
  const command = ctx.temporary ? 'svc cards reveal <Card:id>' : `svc cards reveal ${cardId}`;
  narrator.line(`It expires at ${expiresAt}; \`${command}\` prints such a link on stdout, --open opens it.`);
}
