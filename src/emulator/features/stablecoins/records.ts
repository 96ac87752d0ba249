/**
 * Stablecoin issuance (the description's Stablecoins tag): provider account links, the provider's
 * stablecoins registered against one, and their mint and burn operations. The only provider is
 * BRALE and the emulator is a sandbox, so every record's providerEnvironment is SANDBOX.
 */
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable, tableIndex } from '../../kernel/tables.js';

export const PROVIDER_ENVIRONMENT = 'SANDBOX';
const ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
const GRID_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
const LINK_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
const OPERATION_TYPES = ['MINT', 'BURN'] as const;

export interface ProviderAccountRec {
  id: string;
  provider: string;
  providerAccountId: string;
  providerEnvironment: string;
  status: (typeof LINK_STATUSES)[number];
  lastVerifiedAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinRec {
  id: string;
  name: string;
  symbol: string;
  baseCurrency: string;
  network: string;
  decimals: number;
  issuanceStatus: (typeof ISSUANCE_STATUSES)[number];
  gridOperationsStatus: (typeof GRID_OPERATIONS_STATUSES)[number];
  networkTokenIdentifier: string;
  provider: string;
  stablecoinProviderAccountId: string;
  providerEnvironment: string;
  providerTokenIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

export type OperationStatus =
  | 'CREATED'
  | 'PENDING_FUNDING'
  | 'PENDING_PROVIDER'
  | 'PROCESSING'
  | 'COMPLETED'
  | 'FAILED'
  | 'EXPIRED';

/** The description's StablecoinOperation, stored as it is shown. */
export interface OperationRec {
  id: string;
  stablecoinId: string;
  operationType: (typeof OPERATION_TYPES)[number];
  status: OperationStatus;
  amount: string;
  provider: string;
  providerEnvironment: string;
  stablecoinProviderAccountId: string;
  source?: Record<string, string>;
  fundingInstructions?: Record<string, string>;
  destination?: Record<string, string>;
  estimatedDelivery?: Record<string, string>;
  expiresAt?: string;
  providerStatus?: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export const providerAccounts = durableTable<ProviderAccountRec>('stablecoinProviderAccounts', {
  id: 'string',
  provider: 'string',
  providerAccountId: 'string',
  providerEnvironment: 'string',
  status: 'string',
  lastVerifiedAt: 'string',
  createdAt: 'string',
  updatedAt: 'string',
});
export const stablecoins = durableTable<StablecoinRec>('stablecoins', {
  id: 'string',
  name: 'string',
  symbol: 'string',
  baseCurrency: 'string',
  network: 'string',
  decimals: 'number',
  issuanceStatus: 'string',
  gridOperationsStatus: 'string',
  networkTokenIdentifier: 'string',
  provider: 'string',
  stablecoinProviderAccountId: 'string',
  providerEnvironment: 'string',
  providerTokenIdentifier: 'string',
  createdAt: 'string',
  updatedAt: 'string',
});
export const operations = durableTable<OperationRec>('stablecoinOperations', {
  id: 'string',
  stablecoinId: 'string',
  operationType: 'string',
  status: 'string',
  amount: 'string',
  provider: 'string',
  providerEnvironment: 'string',
  stablecoinProviderAccountId: 'string',
  source: 'object?',
  fundingInstructions: 'object?',
  destination: 'object?',
  estimatedDelivery: 'object?',
  expiresAt: 'string?',
  providerStatus: 'string?',
  description: 'string?',
  createdAt: 'string',
  updatedAt: 'string',
});

/** Links by provider account (one ACTIVE link per provider account). */
export const byProviderAccount = tableIndex<ProviderAccountRec>((a) => `${a.provider}:${a.providerAccountId}`);
/** Registered stablecoins by token identifier (registered once). */
export const byNetworkToken = tableIndex<StablecoinRec>((s) => `${s.network}:${s.networkTokenIdentifier}`);
export const byStablecoin = tableIndex<OperationRec>((o) => o.stablecoinId);

export function providerAccountOr404(emu: EmulatorContext, id: string): ProviderAccountRec {
  const link = emu.table(providerAccounts).get(id);
  if (!link) throw notFound('Stablecoin provider account', id, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
  return link;
}

export function stablecoinOr404(emu: EmulatorContext, id: string): StablecoinRec {
  const coin = emu.table(stablecoins).get(id);
  if (!coin) throw notFound('Stablecoin', id);
  return coin;
}

export function operationOr404(emu: EmulatorContext, id: string): OperationRec {
  const op = emu.table(operations).get(id);
  if (!op) throw notFound('Stablecoin operation', id);
  return op;
}
