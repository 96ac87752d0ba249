/**
 * Registered stablecoins: POST /stablecoins (201; Idempotency-Key required), GET list (paged, by
 * issuanceStatus, gridOperationsStatus, provider), GET one. Registering links a token the provider
 * already made, so it is PROVISIONED at once; the emulator has no route that enables a stablecoin
 * for Grid operations, so gridOperationsStatus stays NOT_ENABLED (and `currency` absent).
 */
import { idPattern } from '../../../service/identifiers.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { HttpError, badRequest, conflict } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import { newId } from '../../kernel/ids.js';
import { pageOf, readPage } from '../../kernel/paging.js';
import type { Route } from '../../kernel/router.js';
import {
  PROVIDER_ENVIRONMENT,
  byNetworkToken,
  providerAccountOr404,
  providerAccounts,
  stablecoinOr404,
  stablecoins,
  type ProviderAccountRec,
  type StablecoinRec,
} from './records.js';

/** A Spark token identifier: bech32m with a `btkn` prefix (a network letter or two may follow it). */
const SPARK_TOKEN = /^btkn[a-z]{0,4}1[02-9ac-hj-np-z]{6,90}$/;
/** What the emulator takes a provider-made token to be: a dollar token with six decimals. */
const TOKEN_DECIMALS = 6;
const TOKEN_BASE_CURRENCY = 'USD';

/** The link a registration uses: the one named, else the platform's only ACTIVE one. */
function chooseLink(emu: EmulatorContext, id: string | undefined): ProviderAccountRec {
  if (id !== undefined) {
    const link = providerAccountOr404(emu, id);
    if (link.status !== 'ACTIVE')
      throw badRequest(`STABLECOIN_PROVIDER_ACCOUNT_${link.status}`, `Provider account link ${id} is ${link.status}`);
    return link;
  }
  const active = emu.table(providerAccounts).filter((a) => a.status === 'ACTIVE');
  if (active.length > 1) {
    throw badRequest(
      'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      `${active.length} provider account links are active; name one as stablecoinProviderAccountId`,
    );
  }
  if (active.length === 0) {
    throw new HttpError(
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      'No stablecoin provider account is linked; link one with POST /stablecoin-provider-accounts first',
    );
  }
  return active[0]!;
}

const register: Route = {
  method: 'POST',
  path: '/stablecoins',
  permission: 'MANAGE',
  idempotent: {},
  handler(req, emu) {
    // Required fields, types and network's enum are the description's, checked before this runs.
    const f = new Fields(req.json());
    const providerToken = f.string('providerTokenIdentifier', { minLength: 1, maxLength: 64 });
    const networkToken = f.string('networkTokenIdentifier', { pattern: SPARK_TOKEN });
    const network = f.string('network');
    const linkId = f.string('stablecoinProviderAccountId', { pattern: idPattern('StablecoinProviderAccount') });
    f.done();
    const link = chooseLink(emu, linkId);
    const registered = emu.table(stablecoins).first(byNetworkToken, `${network}:${networkToken}`);
    if (registered) throw conflict('CONFLICT', `Token ${networkToken} is already registered as ${registered.id}`);
    const now = emu.iso();
    const coin: StablecoinRec = {
      id: newId('Stablecoin'),
      name: providerToken!,
      symbol: providerToken!,
      baseCurrency: TOKEN_BASE_CURRENCY,
      network: network!,
      decimals: TOKEN_DECIMALS,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      networkTokenIdentifier: networkToken!,
      provider: link.provider,
      stablecoinProviderAccountId: link.id,
      providerEnvironment: PROVIDER_ENVIRONMENT,
      providerTokenIdentifier: providerToken!,
      createdAt: now,
      updatedAt: now,
    };
    emu.table(stablecoins).set(coin.id, coin);
    return { status: 201, body: coin };
  },
};

const list: Route = {
  method: 'GET',
  path: '/stablecoins',
  permission: 'VIEW',
  handler(req, emu) {
    // The filters' enums are the description's, checked before this runs.
    const f = new Fields(Object.fromEntries(req.query));
    const issuanceStatus = f.string('issuanceStatus');
    const gridOperationsStatus = f.string('gridOperationsStatus');
    const provider = f.string('provider');
    const paging = readPage(f);
    f.done();
    const picked = emu
      .table(stablecoins)
      .filter(
        (c: StablecoinRec) =>
          (!issuanceStatus || c.issuanceStatus === issuanceStatus) &&
          (!gridOperationsStatus || c.gridOperationsStatus === gridOperationsStatus) &&
          (!provider || c.provider === provider),
      );
    return { status: 200, body: pageOf(picked, paging) };
  },
};

const get: Route = {
  method: 'GET',
  path: '/stablecoins/:id',
  permission: 'VIEW',
  handler: (req, emu) => ({ status: 200, body: stablecoinOr404(emu, req.params.id!) }),
};

export const coinRoutes: Route[] = [register, list, get];
