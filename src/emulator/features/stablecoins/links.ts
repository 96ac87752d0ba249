/**
 * Provider account links: POST (201; Idempotency-Key required), GET list (paged, by provider and
 * status), GET one. The sandbox takes any credentials: the provider account they expose is derived
 * from apiClientId, so the same credentials always name the same account. The secret is never kept.
 */
import { createHash } from 'node:crypto';
import { conflict } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { newId } from '../../kernel/ids.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import {
  PROVIDER_ENVIRONMENT,
  byProviderAccount,
  providerAccountOr404,
  providerAccounts,
  type ProviderAccountRec,
} from './records.js';

/** A provider account id of the provider's shape (27 characters, like a KSUID) for these credentials. */
const derivedAccountId = (apiClientId: string) =>
  createHash('sha256').update(apiClientId).digest('base64').replace(/[+/=]/g, '').slice(0, 27);

const link: Route = {
  method: 'POST',
  path: '/stablecoin-provider-accounts',
  permission: 'MANAGE',
  idempotent: {},
  handler(req, emu) {
    // Required fields, types and provider's enum are the description's, checked before this runs.
    const f = new Fields(req.json());
    const provider = f.string('provider');
    const apiClientId = f.string('apiClientId', { minLength: 1, maxLength: 255 });
    f.string('apiClientSecret', { minLength: 1, maxLength: 1024 });
    const given = f.string('providerAccountId', { minLength: 1, maxLength: 255 });
    f.done();
    const providerAccountId = given ?? derivedAccountId(apiClientId!);
    const linked = emu
      .table(providerAccounts)
      .where(byProviderAccount, `${provider}:${providerAccountId}`)
      .find((a) => a.status === 'ACTIVE');
    if (linked)
      throw conflict('CONFLICT', `${provider} account ${providerAccountId} is already linked as ${linked.id}`);
    const now = emu.iso();
    const rec: ProviderAccountRec = {
      id: newId('StablecoinProviderAccount'),
      provider: provider!,
      providerAccountId,
      providerEnvironment: PROVIDER_ENVIRONMENT,
      status: 'ACTIVE',
      lastVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    emu.table(providerAccounts).set(rec.id, rec);
    return { status: 201, body: rec };
  },
};

const list: Route = {
  method: 'GET',
  path: '/stablecoin-provider-accounts',
  permission: 'VIEW',
  handler(req, emu) {
    // The filters' enums are the description's, checked before this runs.
    const f = new Fields(Object.fromEntries(req.query));
    const provider = f.string('provider');
    const status = f.string('status');
    const paging = readPage(f);
    f.done();
    const picked = emu
      .table(providerAccounts)
      .filter((a) => (!provider || a.provider === provider) && (!status || a.status === status));
    return { status: 200, body: pageOf(picked, paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/stablecoin-provider-accounts/:id',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: providerAccountOr404(emu, req.params.id!) }),
};

export const linkRoutes: Route[] = [link, list, get];
