/**
 * `svc session list [--account <InternalAccount:id>]`: the account's live sessions from the service,
 * each marked with whether its signing key is held in this machine's store and which is active.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { requireId } from '../../src/validate.js';
import { UsageError } from '../../src/errors.js';
import { StoreError } from '../../src/store/errors.js';
import { listSessions } from '../../src/auth/list-revoke.js';
import { publicView } from '../../src/auth/auth-session.js';
import { apiTokenCall, reauthCommand } from '../auth-hints.js';
import { expiresIn } from './format.js';
import { renderTable } from '../table.js';

export type ListOptions = OptionsOf<typeof verbs.list>;

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const given = opts.account === undefined ? undefined : requireId('InternalAccount', opts.account, '--account');
  const [store, { effective: profile, name: profileName }] = await Promise.all([deps.store(), deps.profile()]);
  const activeId = profile.activeSessionId;
  // A damaged key file is marked on its row and named below; it stops nothing else.
  const damaged = new Map(store.damagedSessions().map((d) => [d.file, d.problem]));
  const held = (id: string) => {
    try {
      return store.getSession(id);
    } catch (error) {
      if (error instanceof StoreError) return error;
      throw error;
    }
  };
  const heldAccount = (id: string | undefined) => {
    const s = id === undefined ? undefined : held(id);
    return s instanceof StoreError ? undefined : s?.accountId;
  };
  // Without --account, the account is the one the active session authenticates (or, its key
  // damaged, another key of this profile).
  const accountId = given ?? heldAccount(activeId) ?? store.listSessions(profileName)[0]?.accountId;
  if (!accountId) {
    throw new UsageError('--account is required: this profile has no active session to take the account from.', {
      input: '--account',
      hint: `Pass --account <InternalAccount:id>, or log in first: ${reauthCommand(profile.credentialId)}`,
    });
  }

  // Listing uses only the API token, so a 401 here is about credentials, not the session.
  const sessions = await apiTokenCall(listSessions(await deps.client(), accountId, deps.signal));
  const rows = sessions.map((s) => {
    const key = held(s.id);
    return {
      ...publicView(s),
      keyHeld: key !== undefined && !(key instanceof StoreError),
      ...(key instanceof StoreError && { damagedKeyFile: key.file }),
      active: s.id === activeId,
    };
  });
  const { ui } = deps;
  for (const [file, problem] of damaged)
    ui.warn(
      `${problem}. That session cannot sign here; remove the file (rm '${file}') and log in again for a new key.`,
    );
  ui.result({ data: rows }, () => {
    if (rows.length === 0) return ui.info(`No live sessions for ${accountId}.`);
    const now = deps.clock.now();
    renderTable(
      ui,
      ['', 'ID', 'TYPE', 'NICKNAME', 'EXPIRES IN', 'KEY HERE'],
      rows.map((r) => [
        r.active ? '*' : '',
        r.id,
        r.type,
        r.nickname,
        expiresIn(r.expiresAt, now),
        r.damagedKeyFile ? 'DAMAGED' : r.keyHeld ? 'yes' : 'no',
      ]),
      [1], // the id is what a user copies into `session use` or `revoke`: never shortened
    );
    if (activeId && rows.some((r) => r.active)) ui.hint('* marks the active session of this profile.');
  });
}
