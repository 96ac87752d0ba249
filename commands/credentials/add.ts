/**
 * `svc credentials add <email|sms|oauth|passkey>`: builds the create body for the type (a minted or
 * given OIDC token; a software passkey's real registration), then src/auth/credentials.ts sends it,
 * signing the add with the session key when the account already has a credential. A software
 * passkey is kept in the store, like a session key, once the service has registered it.
 */
import type { OptionsOf } from '../verb.js';
import type * as verbs from './verbs.js';
import type { Deps } from '../deps.js';
import { signedProgress } from '../signed-progress.js';
import { UsageError } from '../../src/errors.js';
import { addCredential, type CredentialType } from '../../src/auth/credentials.js';
import { withAuthHint } from '../auth-hints.js';
import { withCustomerType } from './contact-hint.js';
import { passkeyFolder } from '../../src/auth/kept-keys.js';
import { mintSandboxToken } from '../../src/auth/oidc-token.js';
import {
  attestPasskey,
  createSoftwarePasskey,
  registrationChallenge,
  type SoftwarePasskey,
} from '../../src/auth/software-passkey.js';
import { givenToken, sandboxIdentity } from '../login/token-source.js';
import { accountOf, credentialsContext } from './context.js';
import { withArticle } from '../../src/words.js';

export type AddOptions = OptionsOf<typeof verbs.add>;

const TYPES: Record<string, CredentialType> = {
  email: 'EMAIL_OTP',
  sms: 'SMS_OTP',
  oauth: 'OAUTH',
  passkey: 'PASSKEY',
};
/** The service's nickname rule for passkeys (1–100 of these, trimmed). */
const NICKNAME = /^[\p{L}\p{N} ._'()-]{1,100}$/u;
const LOGIN: Record<CredentialType, string> = { EMAIL_OTP: 'otp', SMS_OTP: 'otp', OAUTH: 'oauth', PASSKEY: 'passkey' };

function credentialType(value: string): CredentialType {
  const type = TYPES[value.toLowerCase()];
  if (!type) throw new UsageError(`<type> must be email, sms, oauth or passkey; got "${value}".`, { input: '<type>' });
  return type;
}

/** Flags that belong to another type are mistakes worth stopping on, before anything is sent. */
function checkFlags(type: CredentialType, opts: AddOptions): void {
  const oauthOnly = opts.token !== undefined || opts.sandboxToken;
  if (type !== 'OAUTH' && oauthOnly)
    throw new UsageError('--token and --sandbox-token are for oauth credentials.', {
      input: opts.token !== undefined ? '--token' : '--sandbox-token',
    });
  if (type !== 'PASSKEY' && (opts.software || opts.nickname !== undefined)) {
    throw new UsageError('--software and --nickname are for passkey credentials.', {
      input: opts.software ? '--software' : '--nickname',
    });
  }
  if (type === 'OAUTH' && !oauthOnly) {
    throw new UsageError(
      'An oauth credential needs an ID token: --token <jwt|-> or, against a sandbox, --sandbox-token.',
      { input: '--token' },
    );
  }
  if (type === 'PASSKEY') {
    if (!opts.software) {
      throw new UsageError(
        'svc registers software passkeys only (--software): a device passkey is registered by your web or mobile app.',
        { input: '--software' },
      );
    }
    if (opts.nickname !== undefined && !NICKNAME.test(opts.nickname.trim())) {
      throw new UsageError("--nickname must be 1-100 letters, digits, spaces or . _ - ' ( ).", { input: '--nickname' });
    }
    if (!/^[A-Za-z0-9.-]+$/.test(opts.rpId))
      throw new UsageError(`--rp-id must be a host name like localhost; got "${opts.rpId}".`, { input: '--rp-id' });
    if (!/^https?:\/\/[^/]+$/.test(opts.origin))
      throw new UsageError(`--origin must be an http(s) origin like https://app.example.com; got "${opts.origin}".`, {
        input: '--origin',
      });
  }
}

/** The --sandbox-token flags a login needs to name the same identity as this add. */
function sandboxLoginFlags(opts: AddOptions): string {
  const named = (['issuer', 'audience', 'subject'] as const)
    .filter((k) => opts[k] !== undefined)
    .map((k) => ` --${k} ${JSON.stringify(opts[k])}`);
  return ` --sandbox-token${named.join('')}`;
}

export async function run(opts: AddOptions, deps: Deps): Promise<void> {
  const type = credentialType(opts.type);
  checkFlags(type, opts);
  const identity = type === 'OAUTH' ? sandboxIdentity(opts) : undefined;
  const token = type === 'OAUTH' ? await givenToken(opts.token, deps) : undefined;
  const ctx = await credentialsContext(opts, deps);
  const accountId = accountOf(opts.account, ctx);
  const body: Record<string, unknown> = { type, accountId };
  let passkey: SoftwarePasskey | undefined;
  if (type === 'OAUTH') body.oidcToken = token ?? mintSandboxToken(identity!, { nowMs: deps.clock.now() });
  if (type === 'PASSKEY') {
    passkey = createSoftwarePasskey({ rpId: opts.rpId, origin: opts.origin });
    const challenge = registrationChallenge();
    Object.assign(body, {
      nickname: (opts.nickname ?? 'svc software passkey').trim(),
      challenge,
      attestation: attestPasskey(passkey, challenge),
    });
  }

  const { ui } = deps;
  const client = await deps.client();
  const progress = signedProgress(ui, deps.signal, `session ${ctx.session?.id ?? '(none held)'}`);
  const method = await progress
    .run(
      {
        start: `Adding ${withArticle(type)} credential to ${accountId}`,
        fail: 'Adding the credential failed.',
        succeed: (added) => `Added ${added.id}${passkey ? '; the software passkey is kept in the store' : ''}.`,
        rethrow: (error) => withAuthHint(error, ctx.session?.credentialId),
      },
      () =>
        addCredential({
          client,
          body,
          // A session of another account cannot approve this one's credentials: say so rather than send it.
          sign: ctx.session?.accountId === accountId ? ctx.sign : undefined,
          signal: deps.signal,
          // The account has credentials, so the add is approved by a signature (the shared signed-flow progress).
          hooks: progress.hooks,
        }),
    )
    .catch(async (error: unknown) => {
      throw await withCustomerType(error, client, deps.signal);
    });
  if (passkey)
    passkeyFolder(ctx.store.dir).save({
      ...passkey,
      id: method.id,
      accountId,
      nickname: method.nickname,
      profile: ctx.profileName,
    });

  const { otpEncryptionTargetBundle: _bundle, ...shown } = method;
  ui.result({ ...shown, ...(passkey ? { softwarePasskeyStored: true } : {}) }, () => {
    ui.out(`Credential: ${method.id}`);
    ui.out(`Type:       ${method.type} ${method.nickname}`);
    ui.out(`Account:    ${method.accountId}`);
    ui.hint(
      `Log in with it: svc login ${LOGIN[method.type]} --credential ${method.id}${identity ? sandboxLoginFlags(opts) : ''}`,
    );
  });
}
