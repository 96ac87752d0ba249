/**
 * Which customer owns the embedded wallet a session signs for. A session names only its wallet
 * (InternalAccount:…); a user with several customers' wallets needs the owner too, to tell which
 * login signs for which money (auth status, session show, the wrong-wallet error).
 */
import type { ApiClient } from '../../src/http/types.js';

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
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const query = `type=EMBEDDED_WALLET&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await client.request<{ data?: Account[]; hasMore?: boolean; nextCursor?: string }>({
        method: 'GET',
        path: `/customers/internal-accounts?${query}`,
        signal,
      });
      const found = res.body?.data?.find((a) => a.id === accountId);
      if (found) return typeof found.customerId === 'string' ? found.customerId : undefined;
      if (!res.body?.hasMore || !res.body.nextCursor) return undefined;
      cursor = res.body.nextCursor;
    }
  } catch {
    // Unknown: the wallet is still named.
  }
  return undefined;
}

/** "wallet InternalAccount:… of customer Customer:…": what a session's key can spend from. */
export function walletLine(accountId: string, customerId: string | null | undefined): string {
  return `wallet ${accountId} of ${customerId ? `customer ${customerId}` : 'a customer the service did not name'}`;
}
