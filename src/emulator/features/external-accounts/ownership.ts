/**
 * Ownership verification of first-party self-custody wallets (the description: such accounts start
 * PENDING_OWNERSHIP_VERIFICATION and payments to them are refused with
 * EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED until proven). WALLET_SIGNATURE: the wallet signs
 * messageToSign (EVM wallets, EIP-191, checked for real); LIVENESS: a hosted check the emulator
 * completes LIVENESS_DELAY_MS of emulator time after the challenge. A new challenge replaces the
 * previous one; a bad or expired signature leaves the account UNVERIFIED.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, badRequest, conflict, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { callerMaySee } from '../accounts/caller.js';
import { memoryTable } from '../../kernel/tables.js';
import { verifyEip191 } from './eip191.js';
import {
  renderExternalAccount,
  requireExternalAccount,
  setExternalAccountStatus,
  type ExternalAccountRec,
} from './records.js';
import { VARIANTS } from './variants.js';

const CHALLENGE_TTL_MS = 10 * 60 * 1000;
const LIVENESS_DELAY_MS = 60 * 1000;

interface OwnershipChallenge {
  accountId: string;
  method: 'WALLET_SIGNATURE' | 'LIVENESS';
  messageToSign?: string;
  token: string;
  expiresAtMs: number;
}

export const ownershipChallenges = memoryTable<OwnershipChallenge>('ownershipChallenges');

export function needsOwnershipProof(account: ExternalAccountRec): boolean {
  return account.status === 'PENDING_OWNERSHIP_VERIFICATION' || account.status === 'UNVERIFIED';
}

function challenge(
  emu: EmulatorContext,
  account: ExternalAccountRec,
  method: 'WALLET_SIGNATURE' | 'LIVENESS',
): Record<string, unknown> {
  if (!needsOwnershipProof(account)) {
    throw conflict(
      'CONFLICT',
      `${account.id} is ${account.status}: only first-party self-custody wallets awaiting verification take a challenge`,
    );
  }
  if (method === 'WALLET_SIGNATURE' && !VARIANTS[String(account.accountInfo.accountType)]?.signable) {
    throw badRequest(
      'INVALID_INPUT',
      `${account.accountInfo.accountType} wallets prove ownership with LIVENESS in the sandbox`,
      {
        errors: [{ field: 'method', message: 'WALLET_SIGNATURE is available for EVM wallets (EIP-191); use LIVENESS' }],
      },
    );
  }
  const token = randomBytes(16).toString('hex');
  const expiresAtMs = emu.now() + CHALLENGE_TTL_MS;
  const record: OwnershipChallenge = { accountId: account.id, method, token, expiresAtMs };
  if (method === 'WALLET_SIGNATURE') {
    record.messageToSign = `Sandbox ownership check for ${account.accountInfo.address} (${account.id}), nonce ${token}`;
  }
  emu.table(ownershipChallenges).set(account.id, record);
  setExternalAccountStatus(emu, account, 'PENDING_OWNERSHIP_VERIFICATION');
  if (method === 'LIVENESS') {
    emu.later(LIVENESS_DELAY_MS, () => {
      // Only the newest challenge counts: a later one replaced this record.
      if (emu.table(ownershipChallenges).get(account.id)?.token !== token) return;
      emu.table(ownershipChallenges).delete(account.id);
      setExternalAccountStatus(emu, account, 'ACTIVE');
    });
    return {
      method,
      verificationLink: `${emu.origin}/embed/liveness/${token}`,
      token,
      expiresAt: emu.iso(expiresAtMs),
    };
  }
  return { method, messageToSign: record.messageToSign, expiresAt: emu.iso(expiresAtMs) };
}

function verify(emu: EmulatorContext, account: ExternalAccountRec, signature: string): Record<string, unknown> {
  const pending = emu.table(ownershipChallenges).get(account.id);
  if (pending?.method !== 'WALLET_SIGNATURE')
    throw conflict('CONFLICT', `No WALLET_SIGNATURE challenge is outstanding for ${account.id}`);
  emu.table(ownershipChallenges).delete(account.id);
  const expired = pending.expiresAtMs <= emu.now();
  if (expired || !verifyEip191(String(account.accountInfo.address), pending.messageToSign!, signature)) {
    setExternalAccountStatus(emu, account, 'UNVERIFIED');
    throw badRequest(
      'INVALID_INPUT',
      expired
        ? 'The challenge expired; ask for a new one'
        : 'The signature was not made by this wallet over messageToSign',
      {
        errors: [
          {
            field: 'signature',
            message: expired ? 'challenge expired' : 'signature does not verify (EIP-191 over messageToSign)',
          },
        ],
      },
    );
  }
  setExternalAccountStatus(emu, account, 'ACTIVE');
  return renderExternalAccount(account);
}

/** The account, unless an agent asks about one that is not its customer's. */
function visibleAccount(req: Req, emu: EmulatorContext, id: string): ExternalAccountRec {
  const account = requireExternalAccount(emu, id);
  if (!callerMaySee(req, account.customerId)) throw notFound('ExternalAccount', id);
  return account;
}

/** Challenge and verify under one prefix (/customers/external-accounts or /platform/external-accounts). */
export function ownershipRoutes(prefix: string): Route[] {
  return [
    {
      method: 'POST',
      path: `${prefix}/:id/challenge`,
      permission: 'MANAGE',
      handler(req, emu) {
        const f = new Fields(req.json());
        // The method's presence and values are the description's, checked before this runs.
        const method = f.string('method');
        f.done();
        return {
          status: 201,
          body: challenge(emu, visibleAccount(req, emu, req.params.id!), method as 'WALLET_SIGNATURE'),
        };
      },
    },
    {
      method: 'POST',
      path: `${prefix}/:id/verify`,
      permission: 'MANAGE',
      handler(req, emu) {
        const f = new Fields(req.json());
        // A signature is required and signatureScheme one of the description's, checked before this runs.
        const signature = f.string('signature');
        f.done();
        return { status: 200, body: verify(emu, visibleAccount(req, emu, req.params.id!), signature!) };
      },
    },
  ];
}

/** The hosted liveness page a verificationLink opens (public: the token is the secret). */
export const livenessPage: Route = {
  method: 'GET',
  path: '/embed/liveness/:token',
  permission: 'none',
  unversioned: true,
  public: true,
  logPath: '/embed/liveness/<token>',
  handler(req, emu) {
    const known = emu.table(ownershipChallenges).find((c) => c.token === req.params.token && c.method === 'LIVENESS');
    if (!known) throw new HttpError(404, 'NOT_FOUND', 'This liveness link is unknown or finished');
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      text: '<!doctype html><title>Sandbox liveness check</title><p>Sandbox liveness check: it completes by itself a minute (emulator time) after the challenge.</p>',
    };
  },
};
