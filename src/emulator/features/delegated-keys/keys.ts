/**
 * Delegated signing keys (the description's DelegatedKey): a P-256 key the service holds for a card
 * funding source backed by an embedded wallet. The emulator generates the pair and keeps only the
 * public key: it signs nothing with it (no Spark wallet), so holding the private half would only be
 * a secret to leak. A funding source is the pair (card, internal account) of the card's
 * `fundingSources`; its id is derived from the pair, so it is the same on every call and restart.
 */
import { createHash } from 'node:crypto';
import type { EmulatorContext } from '../../kernel/context.js';
import { notFound } from '../../kernel/errors.js';
import { durableTable } from '../../kernel/tables.js';

type DelegatedKeyStatus = 'PENDING' | 'ACTIVE' | 'REVOKED';

export interface DelegatedKeyRec {
  id: string;
  cardId: string;
  fundingSourceId: string;
  /** The embedded wallet (the owner the kernel's agent scope reads). */
  accountId: string;
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus;
  createdAt: string;
  updatedAt: string;
}

export const delegatedKeys = durableTable<DelegatedKeyRec>('delegatedKeys', {
  id: 'string',
  cardId: 'string',
  fundingSourceId: 'string',
  accountId: 'string',
  publicKey: 'string',
  nickname: 'string',
  status: 'string',
  createdAt: 'string',
  updatedAt: 'string',
});

/** `CardFundingSource:<uuid>` of (card, account): a UUID-shaped digest of the pair. */
export function fundingSourceId(cardId: string, accountId: string): string {
  const h = createHash('sha256').update(`${cardId}\n${accountId}`).digest('hex');
  return `CardFundingSource:${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const renderKey = (k: DelegatedKeyRec): Record<string, unknown> => ({ ...k });

export function keyOr404(emu: EmulatorContext, id: string): DelegatedKeyRec {
  const key = emu.table(delegatedKeys).get(id);
  if (!key) throw notFound('Delegated key', id);
  return key;
}

export const activeKeyOf = (emu: EmulatorContext, fundingSource: string): DelegatedKeyRec | undefined =>
  emu.table(delegatedKeys).find((k) => k.fundingSourceId === fundingSource && k.status === 'ACTIVE');
