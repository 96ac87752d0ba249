import type { StoredSession } from '../../../src/store/index.js';

export function sessionFixture(n: number, over: Partial<StoredSession> = {}): StoredSession {
  return {
    id: `Session:00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
    accountId: 'InternalAccount:1',
    type: 'EMAIL_OTP',
    nickname: 'dev@example.com',
    expiresAt: '2030-01-01T00:00:00.000Z',
    privateKey: 'ab'.repeat(32),
    publicKey: `02${'cd'.repeat(32)}`,
    profile: 'default',
    createdAt: `2025-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
    ...over,
  };
}
