/**
 * Runs any operation of the resource table (`svc customers create …`): checks the options and
 * builds the request (./request.ts), then prints it (--dry-run), walks its pages (--paginate), or
 * sends it, signing a 202 challenge with the active session's key as `svc api` does, unless a
 * stamp made elsewhere came with --wallet-signature. The answer's body goes to stdout.
 */
import type { Deps } from '../deps.js';
import type { UI } from '../ui.js';
import { irreversible } from '../irreversible.js';
import { signedProgress } from '../signed-progress.js';
import { chooseSigner } from '../api/run.js';
import { apiCall } from '../../src/api/request.js';
import { paginate } from '../../src/api/paginate.js';
import { resolveEndpoint } from '../../src/store/resolve.js';
import { AuthRequiredError, UsageError } from '../../src/errors.js';
import type { ApiResponse } from '../../src/http/types.js';
import { createStamper } from '../../src/crypto/stamp.js';
import { parseChallenge } from '../../src/signing/challenge.js';
import { OPERATIONS } from './table.js';
import { commandWords, OPERATION, type Operation } from './operation.js';
import { buildRequest, type ResourceRequest } from './request.js';
import { dryRun, printDryRun } from './dry-run.js';
import { wrongWallet } from './wrong-wallet.js';
import { payInstead } from './realtime-quote.js';
import type { StoredSession } from '../../src/store/types.js';

/** More signed legs than any operation of the description has: past this, the 202 is printed as it is. */
const MAX_SIGNED_LEGS = 4;

function printAnswer(ui: UI, words: string, res: ApiResponse): void {
  const { body, text } = res;
  // A 204 has nothing to print: say it was done, on stderr, so stdout stays empty for scripts.
  if (text === '') return ui.success(`svc ${words}: done (HTTP ${res.status})`);
  if (typeof body === 'string') ui.out(text.replace(/\n$/, ''));
  else ui.result(body, () => ui.out(JSON.stringify(body, null, 2)));
}

async function showDryRun(op: Operation, req: ResourceRequest, deps: Deps): Promise<void> {
  // The base URL and the kind of credentials as they would be used; without any, placeholders.
  const target = await resolveEndpoint(deps.env, { baseUrl: deps.globals.baseUrl }, () => deps.profile()).then(
    (e) => ({ baseUrl: e.baseUrl, auth: e.auth.kind }),
    () => ({
      baseUrl: deps.globals.baseUrl ?? deps.env.SERVICE_BASE_URL ?? '$SERVICE_BASE_URL',
      auth: 'basic' as const,
    }),
  );
  printDryRun(deps.ui, dryRun(req, target, op.signed === true, op.signedBy));
}

export async function run(opts: Record<string, unknown>, deps: Deps): Promise<void> {
  const op = OPERATIONS.find((o) => commandWords(o) === opts[OPERATION]);
  if (!op) throw new Error(`no operation "${String(opts[OPERATION])}" in the resource table`);
  const words = commandWords(op);
  const req = buildRequest(op, opts);
  if (opts.paginate === true && /[?&]cursor=/.test(req.path))
    throw new UsageError('--paginate walks the cursors itself: drop --cursor.', { input: '--cursor' });
  if (opts.dryRun === true) return showDryRun(op, req, deps);

  if (op.irreversible) {
    const yes = deps.globals.yes || opts.yes === true;
    const target = req.path.split('?')[0]!.split('/').pop()!;
    await irreversible(
      { ...deps, globals: { ...deps.globals, yes } },
      `svc ${words} ${decodeURIComponent(target)}`,
    ).confirm(
      `${op.summary[0]!.toUpperCase()}${op.summary.slice(1)}: ${decodeURIComponent(target)}? This cannot be undone.`,
      'changed',
    );
  }

  const { ui } = deps;
  const client = await deps.client();
  if (opts.paginate === true) {
    const all: unknown[] = [];
    await paginate(client, {
      method: req.method,
      path: req.path,
      headers: req.headers,
      signal: deps.signal,
      onItems: (items) => all.push(...items),
    });
    return ui.result(all, () => ui.out(JSON.stringify(all, null, 2)));
  }

  // A stamp given on the command line is sent as it is; otherwise a 202 is signed here.
  const stamped = req.headers['Service-Wallet-Signature'] !== undefined;
  const chosen =
    op.signed && !stamped && !op.signedBy
      ? await chooseSigner(undefined, deps, `svc ${words}`, { sessionFlag: false })
      : false;
  // The session that signed, to name its wallet when the service refuses it (./wrong-wallet.ts).
  let signedBy: StoredSession | undefined;
  const signer = chosen && (() => (signedBy = chosen()));
  const progress = signedProgress(ui, deps.signal);
  const send = (headers: Record<string, string>) =>
    apiCall(client, {
      ...req,
      headers,
      signer,
      hooks: {
        onChallenge: (c) => progress.start(`Signing challenge ${c.requestId} with the session key`),
        onProcessing: (attempt, body) => progress.hooks.onProcessing?.(attempt, body),
      },
      signal: deps.signal,
      now: () => deps.clock.now(),
    });
  const { result } = await progress
    .run(
      {
        fail: `svc ${words} failed`,
        succeed: ({ signedWith }) => (signedWith ? `Signed the challenge with ${signedWith}` : undefined),
      },
      async () => {
        let result = await send(req.headers);
        let signedWith = result.signedWith;
        // Some operations have more than one signed leg (a delegated key's creation): a signed retry
        // answered by another challenge is signed in turn and sent again, each leg as the first was.
        for (let leg = 2; signer && result.response.status === 202 && leg <= MAX_SIGNED_LEGS; leg++) {
          const { challenge } = parseChallenge(result.response.body, req.method, req.path.split('?')[0]!);
          progress.start(`Signing challenge ${challenge.requestId} (leg ${leg}) with the session key`);
          const session = signer();
          const stamp = createStamper(session.privateKey)(challenge.payloadToSign);
          result = await send({ ...req.headers, 'Service-Wallet-Signature': stamp, 'Request-Id': challenge.requestId });
          signedWith = result.signedWith ?? session.id;
        }
        return { result, signedWith };
      },
    )
    .catch(async (error: unknown) => {
      await payInstead(error, { client, path: req.path, signal: deps.signal });
      throw (await wrongWallet(error, { client, path: req.path, session: signedBy, signal: deps.signal })) ?? error;
    });
  printAnswer(ui, words, result.response);
  if (op.signedBy && !stamped && result.response.status === 202) throw unansweredChallenge(op, words, result.response);
}

/** A challenge svc cannot sign (printed above, on stdout): what it needs and how to send it. */
function unansweredChallenge(op: Operation, words: string, res: ApiResponse): AuthRequiredError {
  const { challenge } = parseChallenge(res.body, op.method, op.path);
  return new AuthRequiredError(
    `svc ${words} is not done: the challenge printed on stdout is to be signed by ${op.signedBy}, not by a session, and no --wallet-signature was given.`,
    {
      hint: `Stamp its payloadToSign with that key (svc keys stamp --private-key-file <file> --payload <payloadToSign>) and run the same command again with --wallet-signature <stamp> --request-id ${challenge.requestId}.${op.seeAlso ? ` Or use ${op.seeAlso}.` : ''}`,
    },
  );
}
