/**
 * `svc auth status` (as `gh auth status`): which profile and base URL are in use, whether the
 * service accepts the API token and in which environment, and whether the active session is live
 * with its key held here, so the next command's failure is not the first sign of a stale login.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import type { UI } from '../ui.js';
import { ApiError, AuthRequiredError, UsageError } from '../../src/errors.js';
import type { ApiClient } from '../../src/http/types.js';
import { resolveEndpoint } from '../../src/store/resolve.js';
import { reauthCommand } from '../auth-hints.js';
import { mayBeEmulator } from '../../src/webhook-replay/replay.js';
import { serviceClock } from '../../src/trigger/service-clock.js';
import { expiresIn } from '../session/format.js';
import { walletLine, walletOwner } from '../session/wallet-owner.js';
import { tokenEnvironment, type TokenEnvironment } from '../../src/sandbox/environment.js';

/**
 * A fresh install (no base URL or no credentials yet) is not logged in, as `gh auth status` says:
 * exit 4 (AuthRequiredError), not a usage error, with the first step to take.
 */
function notLoggedIn(error: unknown, profile: string): AuthRequiredError | undefined {
  const reason = error instanceof UsageError ? error.reason : undefined;
  if (reason !== 'MISSING_BASE_URL' && reason !== 'MISSING_CREDENTIALS') return undefined;
  const what = reason === 'MISSING_BASE_URL' ? 'no base URL' : 'no API credentials';
  return new AuthRequiredError(`Not logged in: profile "${profile}" has ${what}.`, {
    hint: 'For a local sandbox, run `svc emulator start --detach` (it makes the `local` profile current); for the service, `svc config set base-url <url>` and your API token (svc config set api-token-id …).',
  });
}

/** Whether the service lists the session among its account's live sessions. */
async function sessionLive(client: ApiClient, id: string, accountId: string, signal: AbortSignal): Promise<boolean> {
  const res = await client.request<{ data?: { id?: string }[] }>({
    method: 'GET',
    path: `/auth/sessions?accountId=${encodeURIComponent(accountId)}`,
    signal,
  });
  return (res.body?.data ?? []).some((s) => s.id === id);
}

export async function run(_opts: OptionsOf<typeof verbs.status>, deps: Deps): Promise<void> {
  const { ui } = deps;
  const [store, selected] = await Promise.all([deps.store(), deps.profile()]);
  const client = await deps.client().catch((error: unknown) => {
    throw notLoggedIn(error, selected.name) ?? error;
  });
  const { auth } = await resolveEndpoint(deps.env, { baseUrl: deps.globals.baseUrl }, () => selected);
  const credential =
    auth.kind === 'basic' ? { kind: 'api-token', id: auth.tokenId } : { kind: 'access-token' as const };

  let accepted = true;
  try {
    await client.request({ method: 'GET', path: '/customers?limit=1', signal: deps.signal });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    accepted = false;
  }
  const env = accepted ? await tokenEnvironment(client, deps.signal) : 'unknown';
  const local = await mayBeEmulator(client.baseUrl, async () => store.getProfile('local')?.baseUrl);
  const clock = accepted ? await serviceClock(client, local, deps.signal) : undefined;

  const sessionId = selected.effective.activeSessionId;
  const held = sessionId ? store.getSession(sessionId) : undefined;
  const now = deps.clock.now();
  const unexpired = held !== undefined && Date.parse(held.expiresAt) > now;
  // null: not asked, as the token was refused.
  const live = !accepted
    ? null
    : held && unexpired
      ? await sessionLive(client, held.id, held.accountId, deps.signal)
      : false;
  // The wallet's owner stored at login, else asked for when the token works; null: not known.
  const customerId =
    held?.customerId ?? (held && accepted ? ((await walletOwner(client, held.accountId, deps.signal)) ?? null) : null);

  const report = {
    profile: selected.name,
    baseUrl: client.baseUrl,
    emulator: clock?.emulator ?? false,
    ...(clock?.emulator ? { timeScale: clock.timeScale } : {}),
    credential: { ...credential, accepted, environment: env },
    session: sessionId
      ? {
          id: sessionId,
          keyHere: held !== undefined,
          ...(held
            ? {
                type: held.type,
                nickname: held.nickname,
                accountId: held.accountId,
                customerId,
                expiresAt: held.expiresAt,
              }
            : {}),
          live,
        }
      : null,
  };
  ui.result(report, () =>
    print(
      ui,
      report,
      held && { expiresIn: expiresIn(held.expiresAt, now) },
      // The session's own credential, else the one the profile offers (the emulator's fixture).
      reauthCommand(held?.credentialId ?? selected.effective.credentialId, held?.type),
    ),
  );
  if (!accepted) {
    throw new AuthRequiredError(
      `The service refused the ${credential.kind === 'api-token' ? 'API token' : 'access token'} of profile "${selected.name}" (401).`,
      {
        hint: 'Check SERVICE_API_TOKEN_ID / SERVICE_API_CLIENT_SECRET, or the profile: svc config get api-token-id.',
      },
    );
  }
}

type Report = {
  profile: string;
  baseUrl: string;
  emulator: boolean;
  timeScale?: number;
  credential: { kind: string; id?: string; accepted: boolean; environment: TokenEnvironment };
  session: {
    id: string;
    keyHere: boolean;
    type?: string;
    nickname?: string;
    accountId?: string;
    customerId?: string | null;
    live: boolean | null;
  } | null;
};

function print(ui: UI, r: Report, times: { expiresIn: string } | undefined, login: string): void {
  const where = r.emulator ? ` (the svc emulator, clock at ${r.timeScale}x)` : '';
  ui.out(`Profile "${r.profile}" → ${r.baseUrl}${where}`);
  const c = r.credential;
  const name = c.kind === 'api-token' ? `API token ${c.id}` : 'Access token (SERVICE_ACCESS_TOKEN)';
  if (!c.accepted) ui.out(`  ✗ ${name}: refused by the service (401)`);
  else {
    const can =
      c.environment === 'sandbox'
        ? 'sandbox: every endpoint, and the simulators (svc sandbox, svc trigger --list)'
        : c.environment === 'production'
          ? 'production: real money; the sandbox simulators answer 403'
          : 'environment unknown';
    ui.out(`  ✓ ${name}: accepted; ${can}`);
  }
  const s = r.session;
  if (!s) {
    ui.out('  ✗ No active session: signed operations (export, quote execute, credentials, session revoke) need one');
    ui.hint(`Log in: ${login}`);
  } else if (!s.keyHere) {
    ui.out(`  ✗ Session ${s.id} is active but its key is not held here: it cannot sign`);
    ui.hint(`Log in again: ${login}`);
  } else if (s.live === null) {
    ui.out(`  ? Session ${s.id} (${s.type}, ${s.nickname}): not checked, as the token was refused`);
    ui.out(`    signs for ${walletLine(s.accountId!, s.customerId)}`);
  } else if (!s.live) {
    ui.out(
      `  ✗ Session ${s.id} (${s.type}, ${s.nickname}): ${times?.expiresIn.startsWith('expired') ? times.expiresIn : 'no longer live on the service'}`,
    );
    ui.out(`    signed for ${walletLine(s.accountId!, s.customerId)}`);
    // Refresh is signed by the session itself, so a dead one cannot be refreshed.
    ui.hint(`Log in again: ${login}`);
  } else {
    ui.out(`  ✓ Session ${s.id} (${s.type}, ${s.nickname}): live, expires in ${times?.expiresIn}; key held here`);
    ui.out(`    signs for ${walletLine(s.accountId!, s.customerId)}`);
    ui.out('    signs wallet operations: export, quote execute, credentials add/remove, session revoke');
  }
}
