/** A wallet's organizationId is derived from its account id: stable, a uuid, its own; a stored one wins. */
import { describe, expect, it } from 'vitest';
import { organizationOf, type AccountRec } from '../../../src/emulator/features/accounts/accounts.js';

const account = (id: string, organizationId?: string): AccountRec => ({
  id,
  customerId: 'Customer:1',
  ...(organizationId ? { organizationId } : {}),
  type: 'EMBEDDED_WALLET',
  status: 'ACTIVE',
  currency: 'USD',
  balance: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('organizationOf', () => {
  it('is a v4-shaped uuid, the same on every call (and after a restart), different per account', () => {
    const a = account('InternalAccount:9a7b1c2d-0000-4000-8000-000000000001');
    const b = account('InternalAccount:9a7b1c2d-0000-4000-8000-000000000002');
    expect(organizationOf(a)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(organizationOf(a)).toBe(organizationOf(account(a.id)));
    expect(organizationOf(a)).not.toBe(organizationOf(b));
  });

  it('keeps the one a state file of an earlier version stored', () => {
    expect(organizationOf(account('InternalAccount:x', '11111111-2222-4333-8444-555555555555'))).toBe(
      '11111111-2222-4333-8444-555555555555',
    );
  });
});
