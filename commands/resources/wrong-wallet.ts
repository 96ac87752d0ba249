/**
 * A signed call refused because the active session belongs to another wallet than the one the
 * request spends from: the service says only that the key is not a session of this wallet, which
 * reads like a revoked or expired session. Here the two wallets are named, with the login that fits.
 */
import { ApiError, AuthRequiredError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/types.js';
import type { StoredSession } from '../../src/store/types.js';
import { reauthCommand } from '../auth-hints.js';
import { walletLine, walletOwner } from '../session/wallet-owner.js';

/** The embedded wallet a quote is paid from, when it is paid from an account. */
async function quoteWallet(client: ApiClient, path: string, signal: AbortSignal): Promise<string | undefined> {
  const quoteId = /^\/quotes\/([^/]+)\/execute$/.exec(path.split('?')[0]!)?.[1];
  if (!quoteId) return undefined;
  const res = await client.request<{ source?: { accountId?: string } }>({
    method: 'GET',
    path: `/quotes/${quoteId}`,
    signal,
  });
  return res.body?.source?.accountId;
}

/** The login for a wallet: its first credential, when the service lists one. */
async function loginFor(client: ApiClient, accountId: string, signal: AbortSignal): Promise<string> {
  const res = await client.request<{ data?: { id: string; type: string }[] }>({
    method: 'GET',
    path: `/auth/credentials?accountId=${encodeURIComponent(accountId)}`,
    signal,
  });
  const credential = res.body?.data?.[0];
  return credential
    ? reauthCommand(credential.id, credential.type)
    : `add a credential first: svc credentials add email --account ${accountId}`;
}

/**
 * The clearer error for a WALLET_SIGNATURE_INVALID whose session signs for another wallet, or
 * undefined (the original error stands) when that is not the cause or cannot be told.
 */
export async function wrongWallet(
  error: unknown,
  ctx: { client: ApiClient; path: string; session: StoredSession | undefined; signal: AbortSignal },
): Promise<AuthRequiredError | undefined> {
  const { client, path, session, signal } = ctx;
  if (!(error instanceof ApiError && error.code === 'WALLET_SIGNATURE_INVALID') || !session) return undefined;
  try {
    const wallet = await quoteWallet(client, path, signal);
    if (!wallet || wallet === session.accountId) return undefined;
    const [ownerOfSession, ownerOfQuote] = await Promise.all([
      session.customerId ?? walletOwner(client, session.accountId, signal),
      walletOwner(client, wallet, signal),
    ]);
    return new AuthRequiredError(
      `The active session ${session.id} (${session.type} ${session.nickname}) signs for ${walletLine(session.accountId, ownerOfSession)}, but this quote is paid from ${walletLine(wallet, ownerOfQuote)}.`,
      { hint: `Log in with a credential of ${wallet}: ${await loginFor(client, wallet, signal)}` },
    );
  } catch {
    return undefined;
  }
}
