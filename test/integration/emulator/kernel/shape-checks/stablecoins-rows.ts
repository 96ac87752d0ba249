// Stablecoins: mints, burns, provider links and tokens.
import { id, type Row, without } from './row.js';

const mint = (body: object) => ({
  method: 'POST',
  path: `/stablecoins/${id('Stablecoin')}/mints`,
  body,
});
const burn = (body: object) => ({
  method: 'POST',
  path: `/stablecoins/${id('Stablecoin')}/burns`,
  body,
});
const mintBase = {
  amount: '100',
  fundingSource: { type: 'WIRE' },
  destination: { accountId: 'x' },
};
const burnBase = {
  amount: '100',
  source: { type: 'PROVIDER_INTERNAL_BALANCE' },
  destination: {
    type: 'EXTERNAL_ACCOUNT',
    externalAccountId: 'x',
    rail: 'WIRE',
  },
};
const link = { provider: 'BRALE', apiClientId: 'a', apiClientSecret: 's' };
const coin = {
  providerTokenIdentifier: 'T',
  networkTokenIdentifier: 'n',
  network: 'SPARK',
};

export const STABLECOIN_ROWS: Record<string, Row[]> = {
  stablecoins: [
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'provider'),
      field: 'provider',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: { ...link, provider: 'OTHER' },
      field: 'provider',
      rule: 'enum',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'apiClientId'),
      field: 'apiClientId',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoin-provider-accounts',
      body: without(link, 'apiClientSecret'),
      field: 'apiClientSecret',
      rule: 'required',
    },
    {
      method: 'GET',
      path: '/stablecoin-provider-accounts?provider=OTHER',
      field: 'provider',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/stablecoin-provider-accounts?status=GONE',
      field: 'status',
      rule: 'enum',
    },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'providerTokenIdentifier'),
      field: 'providerTokenIdentifier',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'networkTokenIdentifier'),
      field: 'networkTokenIdentifier',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoins',
      body: without(coin, 'network'),
      field: 'network',
      rule: 'required',
    },
    {
      method: 'POST',
      path: '/stablecoins',
      body: { ...coin, network: 'ETHEREUM' },
      field: 'network',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/stablecoins?issuanceStatus=DONE',
      field: 'issuanceStatus',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/stablecoins?gridOperationsStatus=DONE',
      field: 'gridOperationsStatus',
      rule: 'enum',
    },
    {
      method: 'GET',
      path: '/stablecoins?provider=OTHER',
      field: 'provider',
      rule: 'enum',
    },
    { ...mint(without(mintBase, 'amount')), field: 'amount', rule: 'required' },
    {
      ...mint({ ...mintBase, amount: '1.5' }),
      field: 'amount',
      rule: 'pattern',
    },
    {
      ...mint(without(mintBase, 'fundingSource')),
      field: 'fundingSource',
      rule: 'required',
    },
    {
      ...mint({ ...mintBase, fundingSource: {} }),
      field: 'fundingSource.type',
      rule: 'required',
    },
    {
      ...mint({ ...mintBase, fundingSource: { type: 'CASH' } }),
      field: 'fundingSource.type',
      rule: 'enum',
    },
    {
      ...mint({ ...mintBase, fundingSource: { type: 'ACH_DEBIT' } }),
      field: 'fundingSource.externalAccountId',
      rule: 'required',
    },
    {
      ...mint(without(mintBase, 'destination')),
      field: 'destination',
      rule: 'required',
    },
    {
      ...mint({ ...mintBase, destination: {} }),
      field: 'destination.accountId',
      rule: 'required',
    },
    {
      ...mint({ ...mintBase, description: 'd'.repeat(1025) }),
      field: 'description',
      rule: 'maxLength',
    },
    { ...burn(without(burnBase, 'amount')), field: 'amount', rule: 'required' },
    { ...burn(without(burnBase, 'source')), field: 'source', rule: 'required' },
    {
      ...burn({ ...burnBase, source: { type: 'CASH' } }),
      field: 'source.type',
      rule: 'enum',
    },
    {
      ...burn(without(burnBase, 'destination')),
      field: 'destination',
      rule: 'required',
    },
    {
      ...burn({
        ...burnBase,
        destination: { ...burnBase.destination, type: 'WALLET' },
      }),
      field: 'destination.type',
      rule: 'enum',
    },
    {
      ...burn({
        ...burnBase,
        destination: without(burnBase.destination, 'type'),
      }),
      field: 'destination.type',
      rule: 'required',
    },
    {
      ...burn({
        ...burnBase,
        destination: without(burnBase.destination, 'externalAccountId'),
      }),
      field: 'destination.externalAccountId',
      rule: 'required',
    },
    {
      ...burn({
        ...burnBase,
        destination: without(burnBase.destination, 'rail'),
      }),
      field: 'destination.rail',
      rule: 'required',
    },
    {
      ...burn({
        ...burnBase,
        destination: { ...burnBase.destination, rail: 'PIGEON' },
      }),
      field: 'destination.rail',
      rule: 'enum',
    },
    {
      ...burn({ ...burnBase, description: 'd'.repeat(1025) }),
      field: 'description',
      rule: 'maxLength',
    },
    {
      method: 'GET',
      path: `/stablecoins/${id('Stablecoin')}/operations?operationType=SWAP`,
      field: 'operationType',
      rule: 'enum',
    },
  ],
};
