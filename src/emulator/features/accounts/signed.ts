/**
 * The two signed account operations (spec, Authentication 3): PATCH /internal-accounts/{id}
 * (privateEnabled) and POST /internal-accounts/{id}/export (the wallet's credentials sealed to the
 * caller's key). Both are embedded-wallet operations and both are the two-step signed retry: the
 * first call binds the body and answers 202; the retry, stamped by an active session key of that
 * wallet and repeating the body, applies it.
 */
import { randomBytes } from 'node:crypto';
import { hpkeSeal } from '../../../crypto/hpke.js';
import { bytesToHex } from '../../../crypto/hex.js';
import { badRequest, unauthorized } from '../../kernel/errors.js';
import { CLIENT_PUBLIC_KEY_RULES, Fields } from '../../kernel/fields.js';
import type { EmulatorContext } from '../../kernel/context.js';
import type { Reply, Req, Route } from '../../kernel/router.js';
import { signedFlow, type SignedFlow } from '../../signed-retry/flow.js';
import { organizationOf, renderAccount, requireAccount, type AccountRec } from './accounts.js';

const UNCOMPRESSED_KEY = /^04[0-9a-fA-F]{128}$/;

function walletOnly(account: AccountRec): void {
  if (account.type !== 'EMBEDDED_WALLET') {
    throw badRequest(
      'INVALID_INPUT',
      `${account.id} is ${account.type}: only embedded wallets take signed account operations`,
      {
        errors: [{ field: 'id', message: 'not an EMBEDDED_WALLET account' }],
      },
    );
  }
}

/**
 * The sandbox wallet's recovery phrase: 24 three-letter words, one per random byte. Not BIP-39
 * (the emulator holds no real wallet keys); it is what export seals, and it stays the same.
 */
function mnemonicOf(emu: EmulatorContext, account: AccountRec): string {
  if (!account.mnemonic) {
    const first = 'bdfghjklmnprstvz';
    account.mnemonic = [...randomBytes(24)]
      .map((b) => `${first[b >> 4]}${'aeio'[(b >> 2) & 3]}${'nrst'[b & 3]}`)
      .join(' ');
    emu.changed();
  }
  return account.mnemonic;
}

async function sealCredentials(emu: EmulatorContext, account: AccountRec, clientPublicKey: string): Promise<string> {
  const { enc, ciphertext } = await hpkeSeal(clientPublicKey, new TextEncoder().encode(mnemonicOf(emu, account)));
  const data = JSON.stringify({
    encappedPublic: bytesToHex(enc),
    ciphertext: bytesToHex(ciphertext),
    organizationId: organizationOf(account),
  });
  // The description: in the sandbox dataSignature and enclaveQuorumPublic are empty strings.
  return JSON.stringify({
    version: 'v1.0.0',
    data: bytesToHex(Buffer.from(data, 'utf8')),
    dataSignature: '',
    enclaveQuorumPublic: '',
  });
}

/**
 * The signed retry over one ACTIVE embedded wallet: both operations bind a body field, name the
 * wallet in the activity and refuse the retry once the account is no longer active.
 */
function walletSignedFlow(
  emu: EmulatorContext,
  req: Req,
  accountId: string,
  op: {
    kind: SignedFlow['kind'];
    binding: string;
    bindingField: string;
    activityType: string;
    parameters: Record<string, unknown>;
    settle(account: AccountRec): Promise<Reply>;
  },
): Promise<Reply> {
  const account = requireAccount(emu, accountId);
  walletOnly(account);
  return signedFlow(emu, req, {
    kind: op.kind,
    resourceId: account.id,
    accountId: account.id,
    binding: op.binding,
    bindingField: op.bindingField,
    begin: () => ({ activityType: op.activityType, parameters: { walletId: account.id, ...op.parameters } }),
    checkTarget() {
      if (account.status !== 'ACTIVE') throw unauthorized('The account is no longer active');
    },
    settle: () => op.settle(account),
  });
}

export const accountSignedRoutes: Route[] = [
  {
    method: 'PATCH',
    path: '/internal-accounts/:id',
    permission: 'MANAGE',
    async handler(req, emu) {
      const f = new Fields(req.json());
      const privateEnabled = f.boolean('privateEnabled');
      if (privateEnabled === undefined && f.errors.length === 0)
        f.add('privateEnabled', 'the body needs at least one field to change (privateEnabled)');
      f.done();
      return walletSignedFlow(emu, req, req.params.id!, {
        kind: 'internal-account-update',
        binding: JSON.stringify({ privateEnabled }),
        bindingField: 'privateEnabled',
        activityType: 'ACTIVITY_TYPE_UPDATE_WALLET',
        parameters: { privateEnabled },
        async settle(account) {
          account.privateEnabled = privateEnabled!;
          account.updatedAt = emu.iso();
          emu.changed();
          return { status: 200, body: renderAccount(account) };
        },
      });
    },
  },
  {
    method: 'POST',
    path: '/internal-accounts/:id/export',
    permission: 'MANAGE',
    async handler(req, emu) {
      const f = new Fields(req.json());
      const clientPublicKey = f.string('clientPublicKey', {
        required: true,
        pattern: UNCOMPRESSED_KEY,
        check: CLIENT_PUBLIC_KEY_RULES.check,
      });
      f.done();
      return walletSignedFlow(emu, req, req.params.id!, {
        kind: 'internal-account-export',
        binding: clientPublicKey!.toLowerCase(),
        bindingField: 'clientPublicKey',
        activityType: 'ACTIVITY_TYPE_EXPORT_WALLET',
        parameters: { targetPublicKey: clientPublicKey },
        async settle(account) {
          return {
            status: 200,
            body: { id: account.id, encryptedWalletCredentials: await sealCredentials(emu, account, clientPublicKey!) },
          };
        },
      });
    },
  },
];
