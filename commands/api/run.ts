/**
 * `svc api <method> <path>`: checks every flag before sending, makes the call (signing a 202
 * challenge with a held session key unless --no-sign), and prints the answer's body on stdout.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import { canPrompt, type Deps } from '../deps.js';
import type { UI } from '../ui.js';
import { ApiError, AuthRequiredError, CancelledError, UsageError } from '../../src/errors.js';
import { requireId } from '../../src/validate.js';
import { reauthCommand } from '../auth-hints.js';
import { refreshableSession } from '../../src/auth/refresh.js';
import type { ApiResponse } from '../../src/http/types.js';
import type { StoredSession } from '../../src/store/types.js';
import type { SignedRequestHooks } from '../../src/signing/engine.js';
import { apiCall } from '../../src/api/request.js';
import { paginate } from '../../src/api/paginate.js';
import { requestParts } from './request-parts.js';
import { signedProgress, type SignedProgress } from '../signed-progress.js';

export type ApiOptions = OptionsOf<typeof verbs.api>;

function checkCombinations(opts: ApiOptions, deps: Deps): void {
  if (!opts.sign && (opts.session !== undefined || opts.showPayload)) {
    throw new UsageError(
      `--no-sign returns the challenge unsigned, so ${opts.session !== undefined ? '--session' : '--show-payload'} has nothing to do.`,
      { input: '--no-sign' },
    );
  }
  if (opts.jsonLines && !opts.paginate)
    throw new UsageError('--json-lines goes with --paginate.', { input: '--json-lines' });
  // Pages are plain GETs, one answer each: options about a single answer or a signature would be ignored.
  const single = [
    opts.include && '--include',
    opts.session !== undefined && '--session',
    opts.showPayload && '--show-payload',
  ].filter(Boolean);
  if (opts.paginate && single.length > 0) {
    throw new UsageError(
      `--paginate reads many answers to GET requests, so ${single.join(' and ')} cannot apply; drop ${single.length > 1 ? 'them' : 'it'}.`,
      { input: single.join(',') },
    );
  }
  if (opts.showPayload && !deps.globals.yes && !canPrompt(deps)) {
    throw new UsageError(
      '--show-payload asks before signing, and svc cannot ask here: add --yes to sign after printing the payload.',
      { input: '--yes' },
    );
  }
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Prints the body: nothing for an empty one, JSON (indented unless --json, through --jq), or the text as received.
 * Under --json stdout carries only JSON, so an answer that is not JSON is an error (exit 1), as in
 * every other command, never printed as is.
 */
function printBody(ui: UI, res: ApiResponse, json: boolean, request: { method: string; path: string }): void {
  if (res.text === '') return;
  if (json && typeof res.body === 'string' && !isJsonText(res.text)) {
    const type = res.headers['content-type'] ?? 'no content type';
    throw new ApiError({
      status: res.status,
      code: 'INVALID_RESPONSE',
      message: `${request.method} ${request.path.split('?')[0]} answered HTTP ${res.status} with a body that is not JSON (${type}, ${Buffer.byteLength(res.text)} bytes); --json prints only JSON`,
      method: request.method,
      path: request.path.split('?')[0]!,
      hint: 'Run it again without --json to see the body as it came, or check that the base URL points at the payments service.',
    });
  }
  if (typeof res.body === 'string') ui.out(res.text.replace(/\n$/, ''));
  else printJSON(ui, res.body);
}

/** JSON on stdout: through ui.json under --json (so --jq filters it, as for every command), indented otherwise. */
function printJSON(ui: UI, value: unknown): void {
  ui.result(value, () => ui.out(JSON.stringify(value, null, 2)));
}

function printIncluded(ui: UI, res: ApiResponse): void {
  ui.info(`HTTP ${res.status}`);
  for (const [name, value] of Object.entries(res.headers)) ui.info(`${name}: ${value}`);
  ui.info('');
}

/**
 * The hooks that show the payload and ask (--show-payload), then show the same progress as every
 * other signed flow: the spinner starts once the challenge is accepted for signing, so it never
 * draws over the payload or the question.
 */
function signingHooks(opts: ApiOptions, deps: Deps, ui: UI, progress: SignedProgress): SignedRequestHooks {
  return {
    async onChallenge(challenge) {
      if (opts.showPayload) {
        ui.info(`Payload to sign (${challenge.requestId}, expires ${challenge.expiresAt}):`);
        ui.info(challenge.payloadToSign);
        if (
          !deps.globals.yes &&
          !(await deps.prompter.confirm({ message: 'Sign this payload with the session key?', default: false }))
        ) {
          throw new CancelledError('Cancelled: nothing was signed.');
        }
      }
      progress.start(`Signing challenge ${challenge.requestId} with the session key`);
    },
    onProcessing: (attempt, body) => progress.hooks.onProcessing?.(attempt, body),
  };
}

/**
 * The session whose key answers a challenge: --session, checked now (held here and live) so a bad
 * one sends nothing; else the profile's active session, looked up only when a challenge arrives.
 * `sessionFlag` says whether the calling command has --session, so the hint offers it only there.
 */
export async function chooseSigner(
  sessionId: string | undefined,
  deps: Deps,
  what: string,
  { sessionFlag = true }: { sessionFlag?: boolean } = {},
): Promise<() => StoredSession> {
  const [store, { effective }] = await Promise.all([deps.store(), deps.profile()]);
  if (sessionId !== undefined) {
    const chosen = refreshableSession(store, sessionId, deps.clock.now(), { credentialId: effective.credentialId });
    return () => chosen;
  }
  return () => {
    if (!effective.activeSessionId) {
      const login = reauthCommand(effective.credentialId);
      throw new AuthRequiredError(`${what} needs a wallet signature and no session is active here.`, {
        hint: sessionFlag ? `Log in first (${login}) or pass --session <Session:id>.` : `Log in first: ${login}.`,
      });
    }
    return refreshableSession(store, effective.activeSessionId, deps.clock.now(), {
      credentialId: effective.credentialId,
    });
  };
}

export async function run(opts: ApiOptions, deps: Deps): Promise<void> {
  checkCombinations(opts, deps);
  const parts = await requestParts(opts, deps);
  const sessionId = opts.session === undefined ? undefined : requireId('Session', opts.session, '--session');
  const { ui } = deps;
  const client = await deps.client();

  if (opts.paginate) {
    const all: unknown[] = [];
    await paginate(client, {
      method: parts.method,
      path: parts.path,
      headers: parts.headers,
      signal: deps.signal,
      onItems: (items) => (opts.jsonLines ? items.forEach((item) => ui.json(item)) : all.push(...items)),
    });
    if (!opts.jsonLines) printJSON(ui, all);
    return;
  }

  const signer = opts.sign ? await chooseSigner(sessionId, deps, `${parts.method} ${parts.path.split('?')[0]}`) : false;
  if (parts.idempotencyKey !== undefined && opts.idempotencyKey === 'auto')
    ui.info(`Idempotency-Key: ${parts.idempotencyKey}`);

  const progress = signedProgress(ui, deps.signal);
  const { response } = await progress.run(
    {
      fail: 'The signed request failed',
      succeed: ({ signedWith }) => (signedWith ? `Signed the challenge with ${signedWith}` : undefined),
      rethrow: (error) => {
        // The error itself is rendered by the caller; --include still owes the status line.
        if (opts.include && error instanceof ApiError) ui.info(`HTTP ${error.status}`);
        return error;
      },
    },
    () =>
      apiCall(client, {
        method: parts.method,
        path: parts.path,
        body: parts.body,
        headers: parts.headers,
        signer,
        hooks: signingHooks(opts, deps, ui, progress),
        signal: deps.signal,
        now: () => deps.clock.now(),
      }),
  );
  if (opts.include) printIncluded(ui, response);
  printBody(ui, response, deps.globals.json, parts);
}
