/**
 * `svc session show`: the profile's active session as stored here (never the private key), with the
 * wallet and the customer it signs for, both stored at login: it asks the service nothing, unless
 * the session was stored without its customer (by an older svc), which is then asked for.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { AuthRequiredError } from '../../src/errors.js';
import { isExpired } from '../../src/auth/auth-session.js';
import { reauthCommand } from '../auth-hints.js';
import { printSessionSummary } from './format.js';
import { walletLine, walletOwner } from './wallet-owner.js';

export type ShowOptions = OptionsOf<typeof verbs.show>;

export async function run(_opts: ShowOptions, deps: Deps): Promise<void> {
  const [store, { name: profileName, stored: profile }] = await Promise.all([deps.store(), deps.profile()]);
  const activeId = profile?.activeSessionId;
  const stored = activeId ? store.getSession(activeId) : undefined;
  if (!stored) {
    throw new AuthRequiredError(`Profile "${profileName}" has no active session.`, {
      hint: `Log in: ${reauthCommand(profile?.credentialId)}`,
    });
  }
  const { privateKey: _secret, ...visible } = stored;
  const expired = isExpired(stored.expiresAt, deps.clock.now());
  // The owner stored at login answers offline; a session stored before svc kept it asks the service,
  // and is shown from the store even when the service cannot be asked.
  const customerId =
    stored.customerId ??
    (await deps
      .client()
      .then((client) => walletOwner(client, stored.accountId, deps.signal))
      .catch(() => undefined));
  const { ui } = deps;
  ui.result({ ...visible, customerId: customerId ?? null, active: true, expired }, () => {
    printSessionSummary(ui, stored, deps.clock.now());
    ui.out(`Signs for:  ${walletLine(stored.accountId, customerId)}`);
    ui.out(`Public key: ${stored.publicKey}`);
    ui.out(`Profile:    ${profileName}`);
    if (expired) ui.warn(`This session has expired; log in again: ${reauthCommand(stored.credentialId, stored.type)}`);
  });
}
