/**
 * Signed deliveries nested thousands of levels deep to `svc --json webhook
 * listen`. Each is shown (one JSON line) before it is answered 200; a redelivery is a duplicate of
 * something that was shown.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../../src/crypto/webhook-signature.js';
import { tempConfigDir } from '../helpers/spawn-svc.js';
import { keys, post } from '../integration/webhook/helpers.js';
import { lines, spawnListener } from '../integration/webhook/spawn-listener.js';
import { LARGE, printFigures, report } from './report.js';

afterAll(printFigures);

describe('the listener against deep bodies', () => {
  it('every verified delivery is shown before it is acknowledged', async () => {
    const depths = LARGE ? [1_000, 6_000, 20_000, 50_000] : [6_000, 20_000];
    const l = await spawnListener(
      ['--json', 'webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem],
      tempConfigDir(),
    );
    try {
      let shown = 0;
      for (const [i, depth] of depths.entries()) {
        const id = `Webhook:00000000-0000-4000-8000-${String(depth).padStart(12, '0')}`;
        const body = `{"id":"${id}","type":"CARD.STATE_CHANGE","timestamp":"2026-01-01T00:00:00.000Z","data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
        const answer = await post(l.url, body, { 'x-service-signature': signWebhookBody(body, keys.privateKeyPem) });
        const printed = await l.waitForLines(i + 1, 5000).then(
          () => true,
          () => false,
        );
        if (answer.status === 200 && printed && lines(l.stdout()).length === i + 1) shown++;
      }
      report({
        suite: 'listener',
        attack: `signed deliveries nested ${depths.join('/')} levels deep, --json`,
        tried: depths.length,
        survived: shown,
        lost: depths.length - shown,
        detail: `${shown} shown before their 200`,
      });
      expect(shown).toBe(depths.length);
    } finally {
      await l.stop();
    }
  });
});
