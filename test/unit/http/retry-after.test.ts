import { describe, expect, it } from 'vitest';
import { isSafeToRepeat, parseRetryAfter } from '../../../src/http/retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 7 ', now)).toBe(7000);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });
  it('gives undefined for absent or garbage values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('isSafeToRepeat', () => {
  it('allows idempotent methods', () => {
    for (const m of ['GET', 'head', 'DELETE', 'PUT', 'OPTIONS']) expect(isSafeToRepeat(m, {})).toBe(true);
  });
  it('refuses POST and PATCH unless they carry Request-Id (a signed retry)', () => {
    expect(isSafeToRepeat('POST', {})).toBe(false);
    expect(isSafeToRepeat('PATCH', { 'content-type': 'application/json' })).toBe(false);
    expect(isSafeToRepeat('POST', { 'request-id': 'Request:1' })).toBe(true);
    expect(isSafeToRepeat('PATCH', { 'Request-Id': 'Request:1' })).toBe(true);
  });
});
