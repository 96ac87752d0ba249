/**
 * `svc cards reveal <Card:id> [--open]`: gets a short-lived panEmbedUrl for rendering the card
 * details. The URL goes to stdout only (or straight to the browser with --open), never to stderr,
 * so a script can capture it while the terminal log stays clean of it.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { apiTokenCall } from '../auth-hints.js';
import { revealCard } from './reveal-request.js';
import { openUrl, requireOpener } from './open-url.js';

export type RevealOptions = OptionsOf<typeof verbs.reveal>;

export async function run(opts: RevealOptions, deps: Deps): Promise<void> {
  const cardId = requireId('Card', opts.card, 'card');
  const opener = opts.open ? requireOpener(deps.env) : undefined;
  const client = await deps.client();
  const { ui } = deps;
  const { panEmbedUrl, expiresAt } = await apiTokenCall(revealCard(client, cardId, deps.signal));

  if (opener) {
    await openUrl(panEmbedUrl, deps.env, opener);
    return ui.result({ opened: true, expiresAt }, () =>
      ui.info(`Opened the card details for ${cardId} in the browser; the link expires at ${expiresAt}.`),
    );
  }
  // On stderr even with --json: a script capturing stdout still leaves the warning for its human.
  ui.warn(
    `this URL is a short-lived bearer secret: anyone holding it can see the card number. It expires at ${expiresAt}; do not log, store or share it.`,
  );
  ui.result({ panEmbedUrl, expiresAt }, () => ui.out(panEmbedUrl));
}
