/**
 * `svc otp verify --credential <AuthMethod:id> [--code <otp> | --code -]`: email/SMS OTP login.
 * The flow itself is src/auth/otp-login.ts; this file decides where the code comes from, pins the
 * OTP signer on first use, stores the session key (0600, never printed) and makes it active.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { createUI, type UI } from '../ui.js';
import { requireId } from '../../src/validate.js';
import { VerificationError } from '../../src/errors.js';
import { otpLogin, type OtpChallengeInfo, type OtpLoginResult } from '../../src/auth/otp-login.js';
import { withAuthHint } from '../../src/auth/hints.js';
import { publicView } from '../../src/auth/auth-session.js';
import { storeLogin } from '../../src/auth/store-login.js';
import type { Store } from '../../src/store/types.js';
import { codeSource, readCodeFromStdin, validateOtp } from './code-input.js';
import { printSessionSummary } from '../session/format.js';

/** Prompted codes get this many tries, each with a fresh challenge (a code from a flag gets one). */
const PROMPT_ATTEMPTS = 3;

export type VerifyOptions = OptionsOf<typeof verbs.verify>;

function promptMessage(info: OtpChallengeInfo): string {
  const where = info.nickname ? ` sent to ${info.nickname}` : '';
  const attempt = info.attempt > 1 ? ` (attempt ${info.attempt} of ${info.maxAttempts})` : '';
  return `Enter the 6-digit code${where}${attempt}:`;
}

function pinSigner(ui: UI, store: Store, profileName: string, signer: string): void {
  store.setProfile(profileName, { otpSignerPublicKey: signer });
  ui.info(`Trusted the OTP signer key on first use and pinned it to profile "${profileName}": ${signer}`);
  ui.hint('A bundle signed by any other key will now be refused.');
}

export async function run(opts: VerifyOptions, deps: Deps): Promise<void> {
  const credentialId = requireId('AuthMethod', opts.credential, '--credential');
  // Settle the code's source before the challenge: a challenge sends the user a code.
  const source = codeSource(opts.code, deps);
  const given = source.kind === 'stdin' ? await readCodeFromStdin(deps) : source.kind === 'given' ? source.code : undefined;
  const ui = createUI(deps);
  const [store, client, { name: profileName, effective: profile }] = await Promise.all([deps.store(), deps.client(), deps.profile()]);
  const pinned = profile.otpSignerPublicKey;

  let result: OtpLoginResult;
  try {
    result = await otpLogin({
      client,
      credentialId,
      pinnedSigner: pinned,
      // A code from a flag or stdin cannot change, so a second attempt would only fail again.
      maxAttempts: given === undefined ? PROMPT_ATTEMPTS : 1,
      getCode: async (info) =>
        given ?? (await deps.prompter.password({ message: promptMessage(info), mask: true, validate: validateOtp })).trim(),
      onWrongCode: (attempt) => ui.warn(`That code was not accepted (attempt ${attempt} of ${PROMPT_ATTEMPTS}); requesting a new one.`),
      signal: deps.signal,
    });
  } catch (error) {
    if (error instanceof VerificationError && pinned !== undefined && /pinned signer/.test(error.message)) {
      error.hint = `Profile "${profileName}" pins the OTP signer ${pinned}. Nothing was encrypted or sent. If the service really rotated its key, update otpSignerPublicKey in that profile.`;
    }
    throw withAuthHint(error, credentialId);
  }

  storeLogin(store, profileName, credentialId, result, deps.clock.now());
  if (result.newlyTrusted) pinSigner(ui, store, profileName, result.signerPublicKey);

  if (deps.globals.json) {
    ui.json({ ...publicView(result.session), keyStored: true });
    return;
  }
  printSessionSummary(ui, result.session, deps.clock.now());
  ui.success(`Session key stored for profile "${profileName}" and made active.`);
}
