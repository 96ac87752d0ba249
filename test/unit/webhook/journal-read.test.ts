import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../../src/webhook/journal/read.js';
import { MARKER } from '../../../src/webhook/journal/format.js';
import { tempDir } from '../../helpers/temp-dir.js';

const body = (id: string, type = 'CARD.STATE_CHANGE') =>
  JSON.stringify({ id, type, timestamp: '2026-11-26T10:00:00Z', data: {} });
const begun = (id: string) => JSON.stringify({ p: id, b: body(id), h: { 'x-service-signature': `sig-${id}` } });
const answer = (status: number) => ({ url: 'http://127.0.0.1:3000/hook', ok: status < 300, status, ms: 2 });

function journal(lines: string[], tail = ''): string {
  const path = join(tempDir('svc-jr-'), 'seen.log');
  writeFileSync(path, [MARKER, ...lines].map((l) => `${l}\n`).join('') + tail);
  return path;
}

describe('readJournal', () => {
  it('gives done and failed deliveries with body, headers and outcome, oldest first by their latest line', () => {
    const path = journal([
      JSON.stringify('Webhook:old'), // a bare id: seen, nothing kept
      begun('Webhook:a'),
      begun('Webhook:b'),
      JSON.stringify({ q: 'Webhook:a', v: true, f: answer(500) }),
      JSON.stringify({ d: 'Webhook:b', v: false, f: answer(204) }),
      begun('Webhook:a'), // the local retry begins it again: still failed until done
      begun('Webhook:c'), // under way (interrupted): not offered
      begun('Webhook:x'),
      JSON.stringify({ x: 'Webhook:x' }), // released to the service
    ]);
    const entries = readJournal(path);
    expect(entries.map((e) => [e.id, e.state, e.verified, e.answer?.status])).toEqual([
      ['Webhook:a', 'failed', true, 500],
      ['Webhook:b', 'done', false, 204],
    ]);
    expect(entries[0]!.body.toString()).toBe(body('Webhook:a'));
    expect(entries[0]!.headers).toEqual({ 'x-service-signature': 'sig-Webhook:a' });
  });

  it('a failed delivery that later succeeds is done; a torn last line (an append under way) is skipped', () => {
    const path = journal(
      [
        begun('Webhook:a'),
        JSON.stringify({ q: 'Webhook:a', v: true, f: answer(503) }),
        begun('Webhook:a'),
        JSON.stringify({ d: 'Webhook:a', v: true, f: answer(200) }),
      ],
      '{"d":"Webhook:b","v":tr',
    );
    expect(readJournal(path).map((e) => [e.id, e.state, e.answer?.status])).toEqual([['Webhook:a', 'done', 200]]);
  });
});
