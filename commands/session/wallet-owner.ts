/**
 * Which customer owns the embedded wallet a session signs for. A session names only its wallet
 * (InternalAccount:…); a user with several customers' wallets needs the owner too, to tell which
 * login signs for which money (auth status, session show, the wrong-wallet error).
 */
import type { ApiClient } from '../../src/http/types.js';
import { findInList } from '../../src/api/paginate.js';

type Account = { id?: string; customerId?: string };

/** Pages of the customers' wallet list read before giving up. */
const MAX_LIST_PAGES = 5;

/**
 * The wallet's customer id, or undefined when the service cannot tell (no such account, a refused
 * token, no network): the caller reports the wallet alone then, never fails for it.
 */
export async function walletOwner(
  client: ApiClient,
  accountId: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  // The public API reads internal accounts only through lists (there is no GET /internal-accounts/{id}).
  try {
    const found = await findInList<Account>(
      client,
      '/customers/internal-accounts?type=EMBEDDED_WALLET&limit=100',
      (a) => a.id === accountId,
      { maxPages: MAX_LIST_PAGES, signal },
    );
    return typeof found?.customerId === 'string' ? found.customerId : undefined;
  } catch {
    // Unknown: the wallet is still named.
    return undefined;
  }
}

/** "wallet InternalAccount:… of customer Customer:…": what a session's key can spend from. */
export function walletLine(accountId: string, customerId: string | null | undefined): string {
  return `wallet ${accountId} of ${customerId ? `customer ${customerId}` : 'a customer the service did not name'}`;
}
