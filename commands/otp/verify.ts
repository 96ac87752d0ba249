/**
 * `svc otp verify --credential <AuthMethod:id> [--code <otp> | --code -]`: email/SMS OTP login.
 * The flow itself is src/auth/otp-login.ts; this file decides where the code comes from, pins the
 * OTP signer on first use, stores the session key (0600, never printed) and makes it active.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { UI } from '../ui.js';
import { requireId } from '../../src/validate.js';
import { UsageError } from '../../src/errors.js';
import { otpLogin, type OtpChallengeInfo } from '../../src/auth/otp-login.js';
import { withAuthHint } from '../auth-hints.js';
import { publicView } from '../../src/auth/auth-session.js';
import { storeLogin } from '../../src/auth/store-login.js';
import { walletOwner } from '../session/wallet-owner.js';
import type { Store } from '../../src/store/types.js';
import { isWrongOtp } from '../../src/auth/otp-login.js';
import { pinPatch, type PinScope } from '../../src/auth/signer-pins.js';
import { signerTrust } from '../../src/auth/signer-trust.js';
import { settingCommands } from '../config/setting-commands.js';
import { tokenEnvironment } from '../../src/sandbox/environment.js';
import { codeSource, readCodeFromStdin, validateOtp, type CodeSource } from './code-input.js';
import { canPrompt, type Deps } from '../deps.js';
import { isLoopbackHost } from '../../src/http/proxy.js';
import { SANDBOX_OTP_CODE } from '../../src/service/auth-magic.js';
import { signedProgress } from '../signed-progress.js';
import { printSessionSummary } from '../session/format.js';

/** Prompted codes get this many tries, each with a fresh challenge (a code from a flag gets one). */
const PROMPT_ATTEMPTS = 3;

export type VerifyOptions = OptionsOf<typeof verbs.verify>;

/** The prompt; against an emulator on this machine (the demo's too) it says the sandbox code. */
function promptMessage(info: OtpChallengeInfo, baseUrl: string): string {
  const where = info.nickname ? ` sent to ${info.nickname}` : '';
  const attempt = info.attempt > 1 ? ` (attempt ${info.attempt} of ${info.maxAttempts})` : '';
  const sandbox = isLoopbackHost(new URL(baseUrl).hostname) ? ` (the sandbox code is ${SANDBOX_OTP_CODE})` : '';
  return `Enter the 6-digit code${where}${attempt}${sandbox}:`;
}

function pinSigner(ui: UI, store: Store, profileName: string, baseUrl: string, signer: string, scope: PinScope): void {
  store.setProfile(profileName, pinPatch(store.getProfile(profileName), baseUrl, signer, scope));
  const use = scope === 'sandbox' ? 'for sandbox tokens at' : 'for';
  ui.info(
    `Trusted the OTP signer key on first use and pinned it ${use} ${baseUrl} in profile "${profileName}": ${signer}`,
  );
  ui.hint(
    scope === 'sandbox'
      ? 'The API token is a sandbox token: production tokens keep their own pin. A sandbox bundle signed by any other key will now be refused.'
      : 'A bundle signed by any other key will now be refused.',
  );
}

/** The code for one attempt: from the flag, from stdin (read only now, after the challenge sent it), or a prompt. */
async function codeFor(source: CodeSource, info: OtpChallengeInfo, deps: Deps, baseUrl: string): Promise<string> {
  if (source.kind === 'given') return source.code;
  const message = promptMessage(info, baseUrl);
  if (source.kind === 'stdin') return readCodeFromStdin(deps, message);
  return (await deps.prompter.password({ message, mask: true, validate: validateOtp })).trim();
}

/**
 * --credential, or the one the profile names (`svc emulator start` writes the fixture's): offered
 * on a terminal, where --yes answers the question; without a terminal it is used, and said so.
 * Declining the offer leaves --credential to be given.
 */
async function chooseCredential(given: string | undefined, deps: Deps): Promise<string> {
  if (given !== undefined) return requireId('AuthMethod', given, '--credential');
  const { name, effective } = await deps.profile();
  const offered = effective.credentialId;
  if (offered === undefined) return requireId('AuthMethod', given, '--credential');
  if (deps.globals.yes || !canPrompt(deps)) {
    deps.ui.info(
      `Logging in with ${offered}, the credential profile "${name}" names (--credential to choose another).`,
    );
    return offered;
  }
  if (await deps.prompter.confirm({ message: `Log in with ${offered}?`, default: true })) return offered;
  throw new UsageError('--credential is required: the OTP credential to log in with (AuthMethod:<uuid>).', {
    input: '--credential',
    hint: `Profile "${name}" names ${offered}: svc otp verify --credential ${offered}`,
  });
}

export async function run(opts: VerifyOptions, deps: Deps): Promise<void> {
  const credentialId = await chooseCredential(opts.credential, deps);
  // Settle the code's source before the challenge (a challenge sends the user a code), but read
  // stdin only after it: a script piping the emailed code can only have it once it was sent.
  const source = codeSource(opts.code, deps);
  const { ui } = deps;
  const [store, client, { name: profileName, effective: profile }] = await Promise.all([
    deps.store(),
    deps.client(),
    deps.profile(),
  ]);
  // Refusals carry their own hint: the command that changes the pin (src/auth/signer-trust.ts).
  const trust = signerTrust({
    profile,
    profileName,
    commands: settingCommands(profileName),
    baseUrl: client.baseUrl,
    environment: () => tokenEnvironment(client, deps.signal),
  });
  const progress = signedProgress(ui, deps.signal, 'the new session key');

  const result = await progress.run(
    {
      fail: (error) => (isWrongOtp(error) ? 'That code was not accepted.' : 'Login failed; nothing was stored.'),
      succeed: (login) => `Code accepted; signed in as ${login.session.nickname}`,
      rethrow: (error) => withAuthHint(error, credentialId),
    },
    () =>
      otpLogin({
        client,
        credentialId,
        trust,
        // A code from a flag or stdin cannot change, so a second attempt would only fail again.
        maxAttempts: source.kind === 'prompt' ? PROMPT_ATTEMPTS : 1,
        getCode: async (info) => {
          const code = await codeFor(source, info, deps, client.baseUrl);
          // The spinner starts only now: it must not draw over the prompt.
          progress.start(`Verifying the code for ${credentialId}`);
          return code;
        },
        onWrongCode: (attempt) => {
          progress.fail(undefined, 'That code was not accepted.');
          ui.warn(`Attempt ${attempt} of ${PROMPT_ATTEMPTS} failed; requesting a new code.`);
        },
        hooks: progress.hooks,
        signal: deps.signal,
      }),
  );

  const owner = await walletOwner(client, result.session.accountId, deps.signal);
  storeLogin(store, profileName, credentialId, result, deps.clock.now(), owner);
  const { decision } = result;
  if (decision.kind === 'first-use')
    pinSigner(ui, store, profileName, client.baseUrl, result.signerPublicKey!, decision.scope);
  if (decision.kind === 'unsigned') {
    ui.warn(
      'The sandbox sent an OTP bundle with no signer (dataSignature and enclaveQuorumPublic empty): the code was encrypted to its key unchecked. Accepted only because the API token is a sandbox token; production bundles are always checked.',
    );
  }

  ui.result({ ...publicView(result.session), keyStored: true }, () => {
    printSessionSummary(ui, result.session, deps.clock.now());
    ui.success(`Session key stored for profile "${profileName}" and made active.`);
  });
}
