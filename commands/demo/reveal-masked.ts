/**
 * The reveal step runs the real `cards reveal` command, but with its stdout captured: the demo's
 * output may be screen-shared or kept in CI logs, so it shows only that a URL came back, masked.
 */
import { PassThrough } from 'node:stream';
import { redirected } from '../deps.js';
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

export async function revealMasked(ctx: DemoContext, narrator: Narrator, cardId: string): Promise<void> {
  const captured = new PassThrough();
  const chunks: Buffer[] = [];
  captured.on('data', (c: Buffer) => chunks.push(c));
  const deps = redirected(ctx.deps, {
    io: { ...ctx.deps.io, stdout: captured, stdoutIsTTY: false },
    globals: { ...ctx.deps.globals, json: true },
  });
  await reveal({ card: cardId, open: false }, deps);
  const { panEmbedUrl, expiresAt } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    panEmbedUrl: string;
    expiresAt: string;
  };
  narrator.line(`Obtained a panEmbedUrl for ${cardId}: ${maskUrl(panEmbedUrl)}`);
  narrator.line(`It expires at ${expiresAt}; \`svc cards reveal ${cardId}\` prints it on stdout, --open opens it.`);
}
