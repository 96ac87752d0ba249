/** `svc credentials list [--account]`: the account's credentials, marking software passkeys held here. */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { listCredentials } from '../../src/auth/credentials.js';
import { apiTokenCall } from '../auth-hints.js';
import { passkeyFolder } from '../../src/auth/kept-keys.js';
import { renderTable } from '../table.js';
import { accountOf, credentialsContext } from './context.js';

export type ListOptions = OptionsOf<typeof verbs.list>;

export async function run(opts: ListOptions, deps: Deps): Promise<void> {
  const ctx = await credentialsContext({}, deps);
  const accountId = accountOf(opts.account, ctx);
  const credentials = await apiTokenCall(listCredentials(await deps.client(), accountId, deps.signal));
  const held = new Set(
    passkeyFolder(ctx.store.dir)
      .list()
      .map((p) => p.id),
  );
  const rows = credentials.map((c) => ({
    ...c,
    ...(c.type === 'PASSKEY' ? { softwarePasskeyHeld: held.has(c.id) } : {}),
  }));
  const { ui } = deps;
  ui.result({ data: rows }, () => {
    if (rows.length === 0) return ui.info(`No credentials for ${accountId}.`);
    renderTable(
      ui,
      ['ID', 'TYPE', 'NICKNAME', 'CREATED', 'KEY HERE'],
      rows.map((r) => [r.id, r.type, r.nickname, r.createdAt, r.softwarePasskeyHeld ? 'software passkey' : '']),
      [0], // the credential id is what `login … --credential` takes: never shortened
    );
  });
}
