/** `svc cards …`: card operations. Each verb loads on run. */
import type { Command } from 'commander';
import { lazyAction } from '../lazy.cjs';

/** Adds the `cards` verbs to the `cards` command that commands/program.cts created. */
export function registerCards(cards: Command): void {

  cards
    .command('reveal')
    .description('print a short-lived URL that shows the card details (a bearer secret: stdout only)')
    .argument('<card>', 'Card:<uuid>')
    .option('--open', 'open the URL in the system browser (SVC_BROWSER or BROWSER to choose) instead of printing it')
    .addHelpText('after', `
The URL is a short-lived, one-use bearer secret: anyone holding it sees the card
number. It goes to stdout only.

Examples:
  $ svc cards reveal Card:<uuid> --open
  $ svc --json cards reveal Card:<uuid>`)
    .action(lazyAction(() => import('./reveal.js'), ([card], o) => ({ card, open: Boolean(o.open) })));
}
