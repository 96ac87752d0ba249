/** What a login prints: the AuthSession (+ keyStored) with --json, else the session summary. Never key material. */
import type { Deps } from '../deps.js';
import { publicView } from '../../src/auth/auth-session.js';
import type { LoginResult } from '../../src/auth/sealed-login.js';
import { printSessionSummary } from '../session/format.js';

export function printLogin(deps: Deps, result: LoginResult, profileName: string): void {
  const { ui } = deps;
  ui.result({ ...publicView(result.session), keyStored: true }, () => {
    printSessionSummary(ui, result.session, deps.clock.now());
    ui.success(`Session key stored for profile "${profileName}" and made active.`);
  });
}
