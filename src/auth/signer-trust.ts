/**
 * Whether an OTP login may encrypt to a target bundle's signer, by base URL and token environment.
 * One base URL serves the sandbox and production and each signs with its own enclave key, so:
 * - a signer equal to the pin every token honours (the profile's pin for the URL, else the one svc
 *   ships for production) is trusted without asking anything more;
 * - otherwise the token's environment is asked (once): a production token is refused, a sandbox
 *   token checks its own pin (`sandbox-otp-signer`, else a pin the user set for the URL) or, with
 *   none, trusts the key on first use and pins it for sandbox use only;
 * - a bundle with empty signer fields (the remote sandbox sends those) is accepted for a sandbox
 *   token only, with a warning from the caller, never for production.
 * Every refusal is a VerificationError whose hint names the command that fixes it.
 */
import { VerificationError } from '../errors.js';
import { sameSigner } from '../crypto/otp-target-bundle.js';
import type { TokenEnvironment } from '../sandbox/environment.js';
import type { Profile } from '../store/types.js';
import { pinnedSigner, sandboxPin, type PinScope, type SignerPin } from './signer-pins.js';

/** `pinned`: a pin vouches for it; `first-use`: pin it in `scope` and say so; `unsigned`: warn, pin nothing. */
export type TrustDecision = { kind: 'pinned' } | { kind: 'first-use'; scope: PinScope } | { kind: 'unsigned' };

/** How the caller's user changes a profile setting, in the caller's words (the CLI: its config commands). */
export interface SettingCommands {
  set(key: string, value: string): string;
  unset(key: string): string;
}

const IN_WORDS: SettingCommands = {
  set: (key, value) => `set the profile's ${key} to ${value}`,
  unset: (key) => `remove the profile's ${key}`,
};

export interface SignerTrustOptions {
  profile: Profile | undefined;
  /** Named in hints (`Profile "local" pins …`). */
  profileName: string;
  /** The fixes a refusal suggests; plain words when absent. */
  commands?: SettingCommands;
  baseUrl: string;
  /** The token's environment (src/sandbox/environment.ts); asked only when a pin does not settle it. */
  environment(): Promise<TokenEnvironment>;
}

/** Decides about one bundle's signer (undefined: the bundle has none); throws VerificationError to refuse. */
export type SignerTrust = (signer: string | undefined) => Promise<TrustDecision>;

const NOTHING_SENT = 'Nothing was encrypted or sent.';

function refused(message: string, hint: string): VerificationError {
  return new VerificationError(`otpEncryptionTargetBundle refused: ${message}`, { hint: `${NOTHING_SENT} ${hint}` });
}

export function signerTrust(opts: SignerTrustOptions): SignerTrust {
  const { profile, baseUrl } = opts;
  const cmd = opts.commands ?? IN_WORDS;
  const anyPin = pinnedSigner(profile, baseUrl);
  let environment: Promise<TokenEnvironment> | undefined;

  /** A production (or unidentified) token: only the pin every token honours, or first use where none exists. */
  function production(signer: string | undefined, env: TokenEnvironment): TrustDecision {
    const token = env === 'production' ? 'a production token' : 'a token not placed in sandbox or production';
    if (signer === undefined) {
      throw refused(
        `it has no signer (dataSignature and enclaveQuorumPublic are empty), and the API token is ${token}: only a sandbox token may log in with an unsigned bundle.`,
        'Check the base URL and that the API token is the one you meant.',
      );
    }
    if (anyPin === undefined) return { kind: 'first-use', scope: 'any' };
    throw refused(`signed by ${signer}, not by the pinned signer ${anyPin.key}`, mismatchHint(anyPin, token));
  }

  function mismatchHint(pin: SignerPin, token: string): string {
    const where =
      pin.source === 'shipped'
        ? `The API token is ${token}, and ${baseUrl} is the production URL, whose signer ships with this client.`
        : `Profile "${opts.profileName}" pins the OTP signer ${pin.key} for ${baseUrl}.`;
    return `${where} If the service really uses another key (a rotated key), pin the one it publishes: ${cmd.set('otp-signer', '<key>')}${pin.source === 'shipped' ? '' : `, or forget the pin to trust the next key seen: ${cmd.unset('otp-signer')}`}.`;
  }

  function sandbox(signer: string | undefined): TrustDecision {
    if (signer === undefined) return { kind: 'unsigned' };
    const own = sandboxPin(profile, baseUrl);
    if (own !== undefined) {
      if (sameSigner(signer, own)) return { kind: 'pinned' };
      throw refused(
        `signed by ${signer}, not by the sandbox signer ${own} pinned for ${baseUrl}`,
        `Profile "${opts.profileName}" trusted ${own} for sandbox tokens at ${baseUrl} on first use. If the sandbox now signs with another key, forget that pin so the next login trusts the key it sees: ${cmd.unset('sandbox-otp-signer')} (or pin the one it publishes: ${cmd.set('sandbox-otp-signer', '<key>')}).`,
      );
    }
    // A pin the user set for this URL speaks for every token; the shipped one only for production.
    if (anyPin === undefined || anyPin.source === 'shipped') return { kind: 'first-use', scope: 'sandbox' };
    throw refused(
      `signed by ${signer}, not by the pinned signer ${anyPin.key}`,
      mismatchHint(anyPin, 'a sandbox token'),
    );
  }

  return async (signer) => {
    if (signer !== undefined && anyPin !== undefined && sameSigner(signer, anyPin.key)) return { kind: 'pinned' };
    environment ??= opts.environment();
    const env = await environment;
    return env === 'sandbox' ? sandbox(signer) : production(signer, env);
  };
}
