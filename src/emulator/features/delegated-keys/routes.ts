/**
 * `/auth/delegated-keys`: create (the description's three-leg signed retry), list, get, revoke.
 * Leg 1 (no signature headers) generates the pair and answers 202 for the signer-identity activity;
 * its signed retry makes the key PENDING and answers a second 202 for the policy activity; that
 * one's signed retry makes it ACTIVE (201). Every leg must send the same body, and any active
 * session key of the funding wallet may sign. A flow abandoned after leg 2 leaves the key PENDING,
 * which blocks nothing. Revoke needs no wallet signature (the description: the delegated key
 * authorizes its own deletion).
 */
import { randomUUID } from 'node:crypto';
import { generateKeyPair } from '../../../crypto/keys.js';
import { idPattern } from '../../../service/index.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { badRequest, conflict, invalidInput, notFound, unauthorized } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import { createChallenge, pendingRequests, signedFlow, type SignedFlow } from '../../signed-retry/index.js';
import { accounts } from '../accounts/accounts.js';
import { cards } from '../cards/cards.js';
import { activeKeyOf, delegatedKeys, fundingSourceId, keyOr404, renderKey } from './keys.js';

const USER_LEG = 'delegated-key-user';
const POLICY_LEG = 'delegated-key-policy';

interface CreateBody {
  cardId: string;
  internalAccountId: string;
  nickname: string;
}

function readCreate(req: Req): CreateBody {
  const f = new Fields(req.json());
  // Required fields and the nickname's length are the description's, checked before this runs.
  const cardId = f.string('cardId', { pattern: idPattern('Card') });
  const internalAccountId = f.string('internalAccountId', { pattern: idPattern('InternalAccount') });
  const nickname = f.string('nickname');
  f.done();
  return { cardId: cardId!, internalAccountId: internalAccountId!, nickname: nickname! };
}

/**
 * The description's 409: one ACTIVE key per funding source. Checked on every leg, as another flow
 * may have activated one since this one began: that is the resource's state, not a bad signature.
 */
function refuseSecondActive(emu: EmulatorContext, source: string): void {
  const active = activeKeyOf(emu, source);
  if (active)
    throw conflict('CONFLICT', `${source} already has an ACTIVE delegated key (${active.id}); revoke it first`);
}

/** The funding source the body names, or the description's 404; 409 when it has an ACTIVE key. */
function fundingSource(emu: EmulatorContext, body: CreateBody): string {
  const card = emu.table(cards).get(body.cardId);
  if (!card) throw notFound('Card', body.cardId);
  if (!card.fundingSources.includes(body.internalAccountId))
    throw notFound(`Funding source ${body.internalAccountId} of card`, body.cardId);
  if (emu.table(accounts).get(body.internalAccountId)?.type !== 'EMBEDDED_WALLET')
    throw notFound('Embedded Wallet funding account', body.internalAccountId);
  const id = fundingSourceId(body.cardId, body.internalAccountId);
  refuseSecondActive(emu, id);
  return id;
}

const bindingOf = (body: CreateBody) => JSON.stringify([body.cardId, body.internalAccountId, body.nickname]);

/** Leg 1 and its retry: the pair is made at the initial call, its public key bound into the payload. */
function userLeg(emu: EmulatorContext, body: CreateBody, source: string): SignedFlow {
  return {
    kind: USER_LEG,
    resourceId: source,
    accountId: body.internalAccountId,
    binding: bindingOf(body),
    bindingField: 'body',
    begin() {
      return {
        activityType: 'ACTIVITY_TYPE_CREATE_USERS_V3',
        parameters: { userName: body.nickname, apiKeys: [{ publicKey: generateKeyPair().publicKey }] },
      };
    },
    checkTarget: () => refuseSecondActive(emu, source),
    async settle(pending) {
      const parameters = JSON.parse(pending.payloadToSign).parameters as { apiKeys: Array<{ publicKey: string }> };
      const now = emu.iso();
      const id = `DelegatedKey:${randomUUID()}`;
      const key = emu.table(delegatedKeys).set(id, {
        id,
        cardId: body.cardId,
        fundingSourceId: source,
        accountId: body.internalAccountId,
        publicKey: parameters.apiKeys[0]!.publicKey,
        nickname: body.nickname,
        status: 'PENDING',
        createdAt: now,
        updatedAt: now,
      });
      const next = policyLeg(emu, body, key.id);
      return {
        status: 202,
        body: createChallenge(emu, next, {
          activityType: 'ACTIVITY_TYPE_CREATE_POLICIES',
          parameters: { delegatedKeyId: key.id, fundingSourceId: source, effect: 'EFFECT_ALLOW' },
        }),
      };
    },
  };
}

/** Leg 2's retry: the policy is granted, the key ACTIVE. */
function policyLeg(emu: EmulatorContext, body: CreateBody, keyId: string): SignedFlow {
  return {
    kind: POLICY_LEG,
    resourceId: keyId,
    accountId: body.internalAccountId,
    binding: bindingOf(body),
    bindingField: 'body',
    begin() {
      throw unauthorized('The policy leg is reached only by the signed retry of the first leg');
    },
    checkTarget() {
      const key = keyOr404(emu, keyId);
      refuseSecondActive(emu, key.fundingSourceId);
      if (key.status !== 'PENDING')
        throw conflict(
          'CONFLICT',
          `Delegated key ${keyId} is ${key.status}, not PENDING: it can no longer be activated`,
        );
    },
    async settle() {
      const key = keyOr404(emu, keyId);
      Object.assign(key, { status: 'ACTIVE', updatedAt: emu.iso() });
      emu.table(delegatedKeys).set(key.id, key);
      return { status: 201, body: renderKey(key) };
    },
  };
}

const create: Route = {
  method: 'POST',
  path: '/auth/delegated-keys',
  permission: 'MANAGE',
  async handler(req, emu) {
    const body = readCreate(req);
    const requestId = req.header('request-id');
    const pending = requestId ? emu.table(pendingRequests).get(requestId) : undefined;
    if (pending?.kind === POLICY_LEG) return signedFlow(emu, req, policyLeg(emu, body, pending.resourceId));
    // A settled leg-1 retry sent again gets its kept answer even once the key exists.
    const source = pending?.kind === USER_LEG ? pending.resourceId : fundingSource(emu, body);
    return signedFlow(emu, req, userLeg(emu, body, source));
  },
};

const list: Route = {
  method: 'GET',
  path: '/auth/delegated-keys',
  permission: 'VIEW',
  handler(req, emu) {
    const f = new Fields(Object.fromEntries(req.query));
    const accountId = f.string('accountId', { pattern: idPattern('InternalAccount') });
    const source = f.string('fundingSourceId', { pattern: idPattern('CardFundingSource') });
    f.done();
    if (!accountId && !source)
      throw invalidInput([{ field: 'accountId', message: 'give accountId, fundingSourceId or both' }]);
    const data = emu
      .table(delegatedKeys)
      .filter((k) => (!accountId || k.accountId === accountId) && (!source || k.fundingSourceId === source))
      .map(renderKey);
    return { status: 200, body: { data } };
  },
};

const get: Route = {
  method: 'GET',
  path: '/auth/delegated-keys/:id',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: renderKey(keyOr404(emu, req.params.id!)) }),
};

const revoke: Route = {
  method: 'DELETE',
  path: '/auth/delegated-keys/:id',
  permission: 'MANAGE',
  handler(req, emu) {
    const key = keyOr404(emu, req.params.id!);
    if (key.status !== 'ACTIVE')
      throw badRequest('INVALID_INPUT', `Delegated key ${key.id} is ${key.status}, not ACTIVE`, {
        errors: [{ field: 'id', message: `the key is ${key.status}` }],
      });
    Object.assign(key, { status: 'REVOKED', updatedAt: emu.iso() });
    emu.table(delegatedKeys).set(key.id, key);
    return { status: 204 };
  },
};

export const delegatedKeyRoutes: Route[] = [create, list, get, revoke];
