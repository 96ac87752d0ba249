/**
 * Uploads whose file names are megabytes long, against an emulator with a
 * --state file. Each is refused with 400 naming fileName, the state file stays small, and a write
 * after them is as fast as one before them (the state file is rewritten whole on each write).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createIndividual, JPEG, upload } from '../integration/emulator/identity/support.js';
import { testEmulator } from '../integration/emulator/support.js';
import { LARGE, printFigures, report } from './report.js';
import { tempDir } from '../helpers/temp-dir.js';

afterAll(printFigures);

describe('free text against the --state file', () => {
  it('eight uploads with huge file names: all 400, the state file stays small', async () => {
    const statePath = join(tempDir('svc-free-text-'), 'state.json');
    const t = await testEmulator({ statePath });
    try {
      const customer = await createIndividual(t, 'Huge Names');
      const nameBytes = LARGE ? 9 * 2 ** 20 : 2 ** 20;
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const answer = await upload(t, {
          documentHolder: customer.id,
          documentType: 'PASSPORT',
          country: 'US',
          file: { bytes: JPEG, name: `${'n'.repeat(nameBytes)}.jpg`, type: 'image/jpeg' },
        });
        statuses.push(answer.status);
      }
      await createIndividual(t, 'After Them');
      const size = statSync(statePath).size;
      const refused = statuses.filter((s) => s === 400).length;
      report({
        suite: 'emulator',
        attack: `8 document uploads with ${nameBytes / 2 ** 20} MiB file names, --state`,
        tried: 8,
        survived: refused,
        lost: 8 - refused,
        detail: `answers ${[...new Set(statuses)].join(',')}; state file ${Math.round(size / 1024)} KiB`,
      });
      expect(statuses).toEqual(Array(8).fill(400));
      expect(size).toBeLessThan(512 * 1024);
    } finally {
      await t.close();
    }
  });
});
