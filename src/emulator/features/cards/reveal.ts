/**
 * Card reveal: POST /cards/{id}/reveal returns a panEmbedUrl that the emulator itself serves, once,
 * for a short time (revealTtlMs). The URL is a bearer secret: it lives outside the version segment
 * and needs no Basic credentials (an iframe cannot send them); the token is its only key. It is
 * never logged and never persisted.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError } from '../../kernel/errors.js';
import type { Reply, Route } from '../../kernel/router.js';
import { memoryTable } from '../../kernel/tables.js';
import { cards, getCard } from './cards.js';
import { escapeHtml } from '../../kernel/html.js';

const EMBED_PREFIX = '/embed/cards/';

/** Unused reveal links by token. */
export const reveals = memoryTable<{ cardId: string; expiresAtMs: number }>('reveals');

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
};

/** The embed page for a token: consumed on first use; unknown, used or expired tokens get 404. */
function revealPage(emu: EmulatorContext, token: string): Reply {
  const entry = emu.table(reveals).get(token);
  emu.table(reveals).delete(token);
  const card = entry && entry.expiresAtMs > emu.now() ? emu.table(cards).get(entry.cardId) : undefined;
  if (!card) {
    return {
      status: 404,
      headers: PAGE_HEADERS,
      text: '<!doctype html><title>Link expired</title><p>This card link has expired or was already used.</p>',
    };
  }
  const pan = card.pan.replace(/(\d{4})(?=\d)/g, '$1 ');
  const exp = `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;
  return {
    status: 200,
    headers: PAGE_HEADERS,
    text:
      `<!doctype html><meta charset="utf-8"><title>Card</title><style>body{font-family:monospace;font-size:18px}</style>` +
      `<div id="pan">${escapeHtml(pan)}</div><div id="exp">${escapeHtml(exp)}</div><div id="cvc">${escapeHtml(card.cvc)}</div>`,
  };
}

export const revealRoutes: Route[] = [
  {
    method: 'POST',
    path: '/cards/:id/reveal',
    permission: 'MANAGE',
    permissionRefusal: 403,
    handler(req, emu) {
      const card = getCard(emu, req.params.id!);
      // The description declares no 409 here: a card with no details to show (not issued yet, or
      // closed, which the spec says is "no longer to be shown") is a 404.
      if (card.state === 'CLOSED')
        throw new HttpError(404, 'REFERENCE_NOT_FOUND', `Card ${card.id} is closed; its details are no longer shown`);
      if (card.state === 'PROCESSING')
        throw new HttpError(
          404,
          'REFERENCE_NOT_FOUND',
          `Card ${card.id} is still PROCESSING and has no details yet; reveal it once it is ACTIVE`,
        );
      const token = randomBytes(32).toString('base64url');
      const expiresAtMs = emu.now() + emu.opts.revealTtlMs;
      emu.table(reveals).set(token, { cardId: card.id, expiresAtMs });
      return {
        status: 200,
        body: { panEmbedUrl: `${emu.origin}${EMBED_PREFIX}${token}`, expiresAt: emu.iso(expiresAtMs) },
      };
    },
  },
  {
    method: 'GET',
    path: `${EMBED_PREFIX}:token`,
    permission: 'none',
    unversioned: true,
    public: true,
    logPath: `${EMBED_PREFIX}<token>`,
    handler: (req, emu) => revealPage(emu, req.params.token!),
  },
];
