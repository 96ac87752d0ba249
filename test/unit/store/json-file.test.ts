/**
 * The store's atomic write: the whole new content or the old one, 0600, and nothing left behind
 * but the file itself (the temp file it went through is renamed into place).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFile, tempFileFor, writeJsonFile } from '../../../src/store/json-file.js';

describe('writeJsonFile', () => {
  it('replaces the content through a pid-named temp file, 0600, and leaves only the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-json-'));
    writeFileSync(join(dir, 'config.json'), '{"old": true}', { mode: 0o644 });
    writeJsonFile(dir, 'config', { profiles: { a: { baseUrl: 'x' } } });
    expect(readJsonFile(dir, 'config')).toEqual({ profiles: { a: { baseUrl: 'x' } } });
    expect(readdirSync(dir)).toEqual(['config.json']);
    writeJsonFile(dir, 'fresh', { k: 1 });
    expect(statSync(join(dir, 'fresh.json')).mode & 0o777).toBe(0o600);
    expect(tempFileFor(join(dir, 'fresh.json'), 42)).toBe(join(dir, 'fresh.json.42.tmp'));
  });

  it('a failed write keeps the old content and removes its temp file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-json-'));
    writeJsonFile(dir, 'config', { v: 1 });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => writeJsonFile(dir, 'config', cyclic)).toThrow();
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ v: 1 });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
