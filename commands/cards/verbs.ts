/** `svc cards …`: card operations. */
import { arg, defineVerb, flag, verb } from '../verb.js';

export const reveal = defineVerb({
  name: 'reveal',
  description: 'print a short-lived URL that shows the card details (a bearer secret: stdout only)',
  args: { card: arg.required('<card>', 'Card:<uuid>') },
  flags: {
    open: flag.boolean(
      '--open',
      'open the URL in the system browser (SVC_BROWSER or BROWSER to choose) instead of printing it',
    ),
  },
  help: `
The URL is a short-lived, one-use bearer secret: anyone holding it sees the card
number. It goes to stdout only. When --open's browser fails, svc exits 1 and
prints the link only if stdout is a terminal (never into a pipe or a log).

Examples:
  $ svc cards reveal Card:<uuid> --open
  $ svc --json cards reveal Card:<uuid>`,
});

export const cardsVerbs = [verb(reveal, () => import('./reveal.js'))];
