import { describe, expect, it } from 'vitest';
import { API_VERSION, normalizeBaseUrl } from '../../../src/http/index.js';
import { joinUrl, pathOnly } from '../../../src/http/base-url.js';
import { UsageError } from '../../../src/errors.js';

describe('normalizeBaseUrl', () => {
  it('appends the version segment when missing', () => {
    expect(API_VERSION).toBe('2025-10-13');
    expect(normalizeBaseUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010/2025-10-13');
    expect(normalizeBaseUrl('https://api.example.com/v/')).toBe('https://api.example.com/v/2025-10-13');
  });

  it('keeps an existing date segment and strips trailing slashes', () => {
    expect(normalizeBaseUrl('https://api.example.com/2025-10-13/')).toBe('https://api.example.com/2025-10-13');
    expect(normalizeBaseUrl('https://api.example.com/2024-01-02')).toBe('https://api.example.com/2024-01-02');
  });

  it('is idempotent', () => {
    const once = normalizeBaseUrl('http://localhost:4010/');
    expect(normalizeBaseUrl(once)).toBe(once);
  });

  it('rejects what is not an http(s) URL, and URLs with credentials, naming the field', () => {
    for (const bad of [
      'not a url',
      'ftp://x.example',
      'http://user:pw@x.example',
      'http://user:pw@x.example:99999',
      'ftp://user:pw@x.example',
    ]) {
      const err = (() => {
        try {
          normalizeBaseUrl(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).input).toBe('baseUrl');
      expect((err as UsageError).message).not.toContain('pw@');
    }
  });
});

describe('joinUrl and pathOnly', () => {
  it('joins with exactly one slash', () => {
    expect(joinUrl('http://h/2025-10-13', '/a/b')).toBe('http://h/2025-10-13/a/b');
    expect(joinUrl('http://h/2025-10-13', 'a')).toBe('http://h/2025-10-13/a');
    expect(joinUrl('http://h/2025-10-13', '//a')).toBe('http://h/2025-10-13/a');
  });

  it('drops the query and fragment', () => {
    expect(pathOnly('/auth/sessions?accountId=x')).toBe('/auth/sessions');
    expect(pathOnly('cards#frag')).toBe('/cards');
  });
});
