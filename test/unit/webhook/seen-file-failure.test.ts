/**
 * A failed append (disk full, I/O error) must not leave a fragment that the next append glues its
 * first id to: that id would not load after a restart and its redelivery would be printed again.
 * node:fs `write` is wrapped so a test can make one append write half its bytes and then fail.
 */
import { readFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openSeenIds } from '../../../src/webhook/dedupe.js';
import { MARKER } from '../../../src/webhook/journal/format.js';
import { tempDir } from '../../helpers/temp-dir.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, write: vi.fn(real.write) };
});

type WriteCallback = (error: NodeJS.ErrnoException | null, written: number) => void;

/** The next append writes half its bytes, then fails with ENOSPC on the rest. */
function failNextAppendHalfway(): void {
  const real = vi.mocked(fs.write).getMockImplementation()!;
  const call = (...args: unknown[]) => (real as (...a: unknown[]) => void)(...args);
  vi.mocked(fs.write)
    .mockImplementationOnce(((
      fd: number,
      buffer: Buffer,
      offset: number,
      length: number,
      position: null,
      cb: WriteCallback,
    ) => {
      call(fd, buffer, offset, Math.floor(length / 2), position, cb);
    }) as unknown as typeof fs.write)
    .mockImplementationOnce(((_fd: number, _b: Buffer, _o: number, _l: number, _p: null, cb: WriteCallback) => {
      cb(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), 0);
    }) as unknown as typeof fs.write);
}

describe('dedupe file store after a failed append', () => {
  it('rejects the batch, cuts the fragment off, and the next ids load whole after a restart', async () => {
    const path = join(tempDir('svc-dedupe-'), 'seen.log');
    const store = openSeenIds({ storePath: path });
    await store.record('Webhook:before');

    failNextAppendHalfway();
    await expect(store.record('Webhook:lost-in-the-crash')).rejects.toThrow(/ENOSPC/);
    expect(store.has('Webhook:lost-in-the-crash')).toBe(false);
    expect(readFileSync(path, 'utf8')).toMatch(/\n"Webhook:lost-[^\n]*$/); // a fragment with no newline, until the next append

    await store.record('Webhook:next'); // the disk has room again
    await store.close();
    expect(readFileSync(path, 'utf8')).toBe(`${MARKER}\n"Webhook:before"\n"Webhook:next"\n`);

    const reopened = openSeenIds({ storePath: path });
    expect(['Webhook:before', 'Webhook:next', 'Webhook:lost-in-the-crash'].map((id) => reopened.has(id))).toEqual([
      true,
      true,
      false,
    ]);
    await reopened.close();
  });
});
