/**
 * `svc webhook listen | head -1`: once stdout's reader is gone, a delivery that could not be printed
 * is not acknowledged (the service retries it) nor recorded as seen, and the listener stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../../helpers/spawn-svc.js';
import { deliver, envelope, keys } from './helpers.js';
import { lines, spawnListener } from './spawn-listener.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-closed-stdout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a listener whose stdout reader is gone', () => {
  it('answers the delivery it could not print with an error, records nothing, and exits', async () => {
    const store = join(dir, 'journal.log');
    const args = ['webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem, '--store', store];
    const first = await spawnListener(args, tempConfigDir());
    const event = envelope();
    try {
      first.closeStdout();
      const answer = await deliver(first.url, event);
      expect(answer.status).toBe(500);
      expect(await first.exited()).toBe(0);
    } finally {
      first.kill();
    }
    // The service's retry reaches a listener with a reader: shown, not dropped as a duplicate.
    const second = await spawnListener(args, tempConfigDir());
    try {
      expect((await deliver(second.url, event)).status).toBe(200);
      expect(lines(second.stdout()).join('\n')).toContain(event.id);
    } finally {
      await second.stop();
    }
  });
});
