/**
 * POST /auth/credentials. An account without credentials gets its first one at once (201, the
 * description's bootstrap); adding to an account that has one is the signed two-step retry: 202
 * AuthSignedRequestChallenge, then a retry stamped by an active session of that account with a
 * byte-identical body → 201 AuthMethodResponse. OTP credentials answer with an
 * otpEncryptionTargetBundle (the code is "sent"; verify makes the first session). Passkeys make no
 * session here: challenge + verify do.
 */
import { idPattern } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Reply, Req, Route } from '../../kernel/router.js';
import { signedFlow } from '../../signed-retry/index.js';
import { accounts, type AccountRec } from '../accounts/accounts.js';
import {
  authMethods,
  credentialsOf,
  renderAuthMethod,
  type AuthMethodRec,
  type AuthMethodType,
} from './credentials.js';
import {
  checkUnique,
  prepareDraft,
  readDraftInput,
  usedRegistrationChallenges,
  type Draft,
  type DraftInput,
} from './drafts.js';
import { otpChallenge } from './otp.js';
import { newId } from '../../kernel/ids.js';

/** The key-management activity each type's payloadToSign names (opaque to clients). */
const ACTIVITY: Record<AuthMethodType, string> = {
  EMAIL_OTP: 'ACTIVITY_TYPE_CREATE_EMAIL_OTP_AUTHENTICATOR',
  SMS_OTP: 'ACTIVITY_TYPE_CREATE_SMS_OTP_AUTHENTICATOR',
  OAUTH: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
  PASSKEY: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
};

/** The body: its type and accountId are present (the description's, checked before this runs). */
function readBody(req: Req): { accountId: string; input: DraftInput } {
  const f = new Fields(req.json());
  const type = f.string('type') as AuthMethodType;
  const accountId = f.string('accountId', { pattern: idPattern('InternalAccount') });
  const input = readDraftInput(type, f);
  f.done();
  return { accountId: accountId!, input };
}

/** Stores the credential (after the uniqueness rules) and renders the 201. */
function create(emu: EmulatorContext, account: AccountRec, draft: Draft, input: DraftInput): Reply {
  checkUnique(emu, account.id, draft, input.challenge);
  if (input.challenge !== undefined)
    emu.table(usedRegistrationChallenges).set(input.challenge, { usedAtMs: emu.now() });
  const now = emu.iso();
  const method: AuthMethodRec = {
    id: newId('AuthMethod'),
    accountId: account.id,
    ...draft,
    createdAt: now,
    updatedAt: now,
  };
  emu.table(authMethods).set(method.id, method);
  if (draft.type === 'EMAIL_OTP' || draft.type === 'SMS_OTP') return { ...otpChallenge(emu, method), status: 201 };
  return { status: 201, body: renderAuthMethod(method) };
}

export const registerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth/credentials',
    permission: 'MANAGE',
    handler(req, emu) {
      const { accountId, input } = readBody(req);
      const account = emu.table(accounts).get(accountId);
      if (!account) throw notFound('InternalAccount', accountId);
      const retry = req.header('service-wallet-signature') !== undefined || req.header('request-id') !== undefined;
      const draft = prepareDraft(emu, account, input, !retry);
      if (!retry && credentialsOf(emu, account.id).length === 0) return create(emu, account, draft, input);
      return signedFlow(emu, req, {
        kind: 'credential-create',
        resourceId: account.id,
        accountId: account.id,
        // "body differs from step 1" is a 401: the whole body is what the signature approves.
        binding: req.raw.toString('utf8'),
        bindingField: 'body',
        begin() {
          checkUnique(emu, account.id, draft, input.challenge);
          const parameters = {
            type: draft.type,
            nickname: draft.nickname,
            ...(draft.passkey ? { credentialId: draft.passkey.credentialId } : {}),
          };
          return { activityType: ACTIVITY[draft.type], parameters, lead: { type: draft.type } };
        },
        checkTarget: () => undefined,
        settle: async () => create(emu, account, draft, input),
      });
    },
  },
];
