/**
 * How `svc webhook listen` puts delivery lines on stdout: the deliveries shown in one turn of the
 * event loop leave in one write, and none is reported written (so acknowledged) before that write.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderer } from '../../../commands/webhook/listen-output.js';
import { createUI } from '../../../commands/ui.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { envelope } from '../../integration/webhook/helpers.js';

/** A stdout that counts the writes reaching it (one writev of many chunks counts once). */
function countingStdout(fail = false) {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done(fail ? new Error('EPIPE') : null);
    },
    writev(chunks, done) {
      writes.push(chunks.map((c) => (c.chunk as Buffer).toString('utf8')).join(''));
      done(fail ? new Error('EPIPE') : null);
    },
  });
  stream.on('error', () => {}); // the failed write's callback says it; the process's stdout is watched elsewhere
  return { stream, writes };
}

function listenOutput(json: boolean, fail = false) {
  const deps = fakeDeps({ globals: { json } });
  const stdout = countingStdout(fail);
  deps.io.stdout = stdout.stream;
  const out = renderer(createUI(deps), deps);
  out.ready();
  return { out, writes: stdout.writes };
}

describe('listen output', () => {
  for (const json of [true, false]) {
    it(`${json ? '--json' : 'text'}: deliveries shown in the same turn leave in one write, each reported written only after it`, async () => {
      const { out, writes } = listenOutput(json);
      const events = Array.from({ length: 5 }, () => envelope());
      const settled: boolean[] = [];
      const pending = events.map((event, i) =>
        Promise.resolve(out.render({ kind: 'delivery', event, verified: true })).then(() => {
          settled[i] = writes.length > 0;
        }),
      );
      expect(writes).toEqual([]); // held until the turn ends
      await Promise.all(pending);
      expect(writes).toHaveLength(1);
      for (const event of events) expect(writes[0]).toContain(event.id);
      expect(settled).toEqual([true, true, true, true, true]);

      // The next turn's deliveries make the next write.
      const later = envelope();
      await out.render({ kind: 'delivery', event: later, verified: true });
      expect(writes).toHaveLength(2);
      expect(writes[1]).toContain(later.id);
    });
  }

  it('a batch that cannot be written fails every delivery in it (none is acknowledged)', async () => {
    const { out } = listenOutput(true, true);
    const results = await Promise.allSettled(
      [envelope(), envelope()].map((event) => out.render({ kind: 'delivery', event, verified: true })),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
