/**
 * `svc cards reveal <Card:id> [--open]`: gets a short-lived panEmbedUrl for rendering the card
 * details. The URL goes to stdout only (or straight to the browser with --open), never to stderr,
 * so a script can capture it while the terminal log stays clean of it. When --open's browser fails,
 * the URL is printed only to a terminal (the user's own screen, who asked to see the card), never
 * into a pipe or a log; the command fails either way.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { apiTokenCall } from '../auth-hints.js';
import { revealCard } from './reveal-request.js';
import { BrowserFailedError, openUrl, requireOpener } from './open-url.js';

export type RevealOptions = OptionsOf<typeof verbs.reveal>;

export async function run(opts: RevealOptions, deps: Deps): Promise<void> {
  const cardId = requireId('Card', opts.card, 'card');
  const opener = opts.open ? requireOpener(deps.env) : undefined;
  const client = await deps.client();
  const { ui } = deps;
  const { panEmbedUrl, expiresAt } = await apiTokenCall(revealCard(client, cardId, deps.signal));

  if (opener) {
    const failed = await openUrl(panEmbedUrl, deps.env, opener).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof BrowserFailedError) return error;
        throw error;
      },
    );
    if (failed) {
      if (!deps.io.stdoutIsTTY) {
        failed.hint = `The link is a secret, so it is not printed into a pipe or a log. Run \`svc cards reveal ${cardId} --open\` on a terminal to see it there, or \`svc cards reveal ${cardId}\` for a new link on stdout; SVC_BROWSER names the browser to use.`;
        throw failed;
      }
      printSecretUrl(deps, panEmbedUrl, expiresAt);
      failed.hint = 'Open the link printed above in a browser; SVC_BROWSER names the browser --open uses.';
      throw failed;
    }
    return ui.result({ opened: true, expiresAt }, () =>
      ui.info(`Opened the card details for ${cardId} in the browser; the link expires at ${expiresAt}.`),
    );
  }
  printSecretUrl(deps, panEmbedUrl, expiresAt);
}

function printSecretUrl(deps: Deps, panEmbedUrl: string, expiresAt: string): void {
  const { ui } = deps;
  // On stderr even with --json: a script capturing stdout still leaves the warning for its human.
  ui.warn(
    `this URL is a short-lived bearer secret: anyone holding it can see the card number. It expires at ${expiresAt}; do not log, store or share it.`,
  );
  ui.result({ panEmbedUrl, expiresAt }, () => ui.out(panEmbedUrl));
}
