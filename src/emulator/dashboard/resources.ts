/**
 * The Resources view's data: the emulator's own tables, each record rendered as the API returns it
 * (the areas' render functions), so the dashboard shows what a client would get and holds no copy
 * of its own. Searchable: a record matches when its rendered JSON contains the query.
 */
import type { EmulatorContext } from '../kernel/context.js';
import type { TableDef } from '../kernel/tables.js';
import { accounts, renderAccount } from '../features/accounts/accounts.js';
import { cards, renderCard } from '../features/cards/cards.js';
import { customers, renderCustomer } from '../features/customers/customers.js';
import { externalAccounts, renderExternalAccount } from '../features/external-accounts/records.js';
import { quotes, renderQuote } from '../features/quotes/quotes.js';
import { renderSession, sessions } from '../features/sessions/sessions.js';
import { renderTransaction, transactions } from '../features/transactions/transactions.js';
import { maskRecord } from './redact.js';

interface Kind<T> {
  name: string;
  table: TableDef<T>;
  render(emu: EmulatorContext, record: T): Record<string, unknown>;
}

const kind = <T>(name: string, table: TableDef<T>, render: Kind<T>['render']): Kind<unknown> =>
  ({ name, table, render }) as Kind<unknown>;

const RESOURCE_KINDS: readonly Kind<unknown>[] = [
  kind('customers', customers, renderCustomer),
  kind('internal accounts', accounts, (_emu, a) => renderAccount(a)),
  kind('external accounts', externalAccounts, (_emu, a) => renderExternalAccount(a)),
  kind('quotes', quotes, renderQuote),
  kind('transactions', transactions, (_emu, t) => renderTransaction(t)),
  kind('cards', cards, (_emu, c) => renderCard(c)),
  kind('sessions', sessions, renderSession),
];

/** At most this many records a kind, newest first (the count says how many matched in all). */
const SHOWN_PER_KIND = 100;

export interface ResourceList {
  name: string;
  total: number;
  matched: number;
  records: Record<string, unknown>[];
}

export function listResources(emu: EmulatorContext, query: string): ResourceList[] {
  const needle = query.trim().toLowerCase();
  return RESOURCE_KINDS.map((k) => {
    const table = emu.table(k.table);
    const records: Record<string, unknown>[] = [];
    let matched = 0;
    // A table keeps insertion order; the newest are last.
    for (const record of [...table.values()].reverse()) {
      const shown = maskRecord(k.render(emu, record));
      if (needle && !JSON.stringify(shown).toLowerCase().includes(needle)) continue;
      matched++;
      if (records.length < SHOWN_PER_KIND) records.push(shown);
    }
    return { name: k.name, total: table.size, matched, records };
  });
}
