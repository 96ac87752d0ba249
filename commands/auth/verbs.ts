/** svc's own `auth` verbs, beside the official CLI's `auth credentials|sessions|delegated-keys` (commands/resources). */
import { defineVerb, verb } from '../verb.js';

export const status = defineVerb({
  name: 'status',
  description: "check the profile's API token and active session against the service, and say what they can do",
  help: `
Asks the service, never only the store: the token with a one-item list, the environment with an
empty sandbox request (400 in the sandbox, 403 in production; nothing is created), the session in
the account's live sessions. Exit 0 when the token is accepted, 4 when it is not (or none is set).

Examples:
  $ svc auth status
  $ svc --profile sandbox auth status
  $ svc auth status --jq .session.live`,
});

export const authVerbs = [verb(status, () => import('./status.js'))];
