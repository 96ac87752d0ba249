/**
 * Flags shared by `svc login oauth` and `svc credentials add oauth`: where the OIDC token comes
 * from, and the identity a `--sandbox-token` names (add and login must name the same one, so the
 * defaults match). Declared once here; imports nothing but ./verb.js (it loads with the verbs).
 */
import { flag } from './verb.js';

export const tokenFlags = {
  token: flag.value('--token <jwt|->', "the identity provider's ID token, or - to read it from stdin"),
  sandboxToken: flag.boolean('--sandbox-token', 'mint a sandbox-shaped token here (dummy signature: sandboxes only)'),
  issuer: flag.value('--issuer <iss>', 'with --sandbox-token: iss (default https://accounts.google.com)'),
  audience: flag.value('--audience <aud>', 'with --sandbox-token: aud (default svc-sandbox)'),
  subject: flag.value('--subject <sub>', 'with --sandbox-token: sub (default svc-sandbox-user)'),
  email: flag.value('--email <address>', 'with --sandbox-token: the email claim (the credential nickname)'),
};
