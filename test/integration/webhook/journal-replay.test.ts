import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type ReplayOptions } from '../../../commands/webhook/replay.js';
import { createWebhookVerifier } from '../../../src/crypto/webhook-signature.js';
import { SvcError, UsageError } from '../../../src/errors.js';
import { createForwarder } from '../../../src/webhook/forward.js';
import { readJournal } from '../../../src/webhook/journal/read.js';
import { DEFAULT_KEEP_DONE } from '../../../src/webhook/journal/journal-file.js';
import { replay as replayVerb } from '../../../commands/webhook/verbs.js';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../../helpers/spawn-svc.js';
import { fakeDeps } from '../../helpers/fake-deps.js';
import { deliver, envelope, keys, localApp, startRecorder, type LocalApp } from './helpers.js';
import type { RecordedRequest } from '../http/local-server.js';
import { tempDir } from '../../helpers/temp-dir.js';

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (running.length) await running.pop()!();
});

/** A local app answering the given statuses in turn (200 after them), closed after the test. */
async function app(statuses: number[]): Promise<LocalApp> {
  const target = await localApp(statuses);
  running.push(() => target.close());
  return target;
}

/** A receiver with --store and --forward-to `url`; failed forwards wait a minute (they stay failed here). */
async function listener(
  url: string,
  storePath: string,
  bounds: { keepDone?: number; compactAfterLines?: number } = {},
) {
  const forwarder = createForwarder(url);
  const { openSeenIds } = await import('../../../src/webhook/dedupe.js');
  const rec = await startRecorder({
    forwarder,
    dedupe: openSeenIds({ storePath, ...bounds }),
    forwardRetry: { initialMs: 60_000 },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await rec.stop();
    await forwarder.close();
  };
  running.push(stop);
  return { ...rec, stop };
}

const base: ReplayOptions = { ids: [], failed: false };

async function replay(opts: Partial<ReplayOptions>, json = false) {
  const deps = fakeDeps({ globals: { json } });
  let error: unknown;
  await run({ ...base, ...opts }, deps).catch((e: unknown) => (error = e));
  return { stdout: deps.stdout(), stderr: deps.stderr(), error };
}

const storeFile = () => join(tempDir('svc-journal-'), 'seen.log');
const verifies = (s: RecordedRequest) =>
  createWebhookVerifier(keys.publicKeyPem)(s.body, s.headers['x-service-signature'] as string);

describe('svc webhook replay --store (journal mode)', () => {
  it('--last N re-forwards the newest done deliveries, byte for byte and signed, beside the running listener', async () => {
    const target = await app([204, 204, 202, 200, 200, 409]);
    const store = storeFile();
    const l = await listener(target.url, store);
    const events = [envelope(), envelope({ type: 'CARD.FUNDING_SOURCE_CHANGE' }), envelope()];
    for (const e of events) expect((await deliver(l.receiver.url, e)).status).toBe(200);
    expect(target.seen).toHaveLength(3);

    const { stdout, stderr, error } = await replay({ store, last: 2 });
    expect(error).toBeUndefined();
    expect(target.seen).toHaveLength(5);
    // Same bytes and signature as the service sent: the app's own verification passes.
    expect(target.seen.slice(3).map((s) => s.body.toString())).toEqual(
      target.seen.slice(1, 3).map((s) => s.body.toString()),
    );
    expect(target.seen.slice(3).every(verifies)).toBe(true);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^forwarded  CARD\\.FUNDING_SOURCE_CHANGE  ${events[1]!.id}  → ${target.url}: 200 in .*\\(verified, was answered 204 in `,
      ),
    );
    expect(lines[1]).toMatch(new RegExp(`${events[2]!.id}  → .*: 200 in .*\\(verified, was answered 202 in `));
    expect(stderr).toMatch(/Re-forwarded 2 deliveries from .*: 2 accepted/);

    // An app that dedupes answers 409 to one it has: done, not a failure (exit 0).
    const again = await replay({ store, last: 1 }, true);
    expect(again.error).toBeUndefined();
    expect(JSON.parse(again.stdout).data).toMatchObject([
      { id: events[2]!.id, state: 'done', outcome: 'duplicate', forward: { status: 409 } },
    ]);
    expect(again.stderr).toMatch(/0 accepted, 1 already processed by the app \(409\)/);
  });

  it('--failed re-forwards the deliveries whose forward failed, with the journaled answer; --json gives the fields', async () => {
    const target = await app([204, 500, 503]);
    const store = storeFile();
    const l = await listener(target.url, store);
    const ok = envelope();
    const failing = envelope({ type: 'OUTGOING_PAYMENT.COMPLETED', data: { id: 'Transaction:1' } });
    await deliver(l.receiver.url, ok);
    expect(JSON.parse((await deliver(l.receiver.url, failing)).body)).toEqual({ received: true, queued: true });

    // The app still fails: exit 1 (SvcError), the line says so, and the journal is unchanged.
    const down = await replay({ store, failed: true });
    expect(down.error).toBeInstanceOf(SvcError);
    expect((down.error as Error).message).toMatch(new RegExp(`1 of 1 re-forward failed \\(${failing.id}: 503\\)`));
    expect(down.stdout).toMatch(
      new RegExp(
        `^failed +OUTGOING_PAYMENT\\.COMPLETED  ${failing.id}  → .*: 503 in .*\\(verified, was failing 500 in `,
      ),
    );

    const { stdout, error } = await replay({ store, failed: true }, true);
    expect(error).toBeUndefined();
    const out = JSON.parse(stdout) as { store: string; data: Array<Record<string, unknown>> };
    expect(out.store).toBe(store);
    expect(out.data).toEqual([
      {
        id: failing.id,
        type: 'OUTGOING_PAYMENT.COMPLETED',
        state: 'failed',
        verified: true,
        previous: expect.objectContaining({ url: target.url, ok: false, status: 500, ms: expect.any(Number) }),
        outcome: 'forwarded',
        forward: expect.objectContaining({ url: target.url, ok: true, status: 200, ms: expect.any(Number) }),
      },
    ]);
    expect(target.seen.slice(2).map((s) => JSON.parse(s.body.toString()).id)).toEqual([failing.id, failing.id]);
    expect(target.seen.slice(2).every(verifies)).toBe(true);
  });

  it('--to sends elsewhere; the journal survives restarts and compaction, keeping only the newest done deliveries (bounded)', async () => {
    const target = await app([]);
    const other = await app([]);
    const store = storeFile();
    // Compacting every few lines: a compaction keeps the body of only the newest 2 done deliveries.
    const bounds = { keepDone: 2, compactAfterLines: 4 };
    const first = await listener(target.url, store, bounds);
    const events = [envelope(), envelope(), envelope()];
    for (const e of events) await deliver(first.receiver.url, e);
    await first.stop();
    const second = await listener(target.url, store, bounds); // loads the journal back
    const later = envelope();
    await deliver(second.receiver.url, later);
    const kept = readJournal(store);
    expect(kept.slice(-2).map((e) => [e.id, e.state])).toEqual([
      [events[2]!.id, 'done'],
      [later.id, 'done'],
    ]);
    // What the last compaction kept (2) and what came after it, not all four.
    expect(kept.length).toBeLessThan(4);
    const { stdout, error } = await replay({ store, last: 2, to: other.url });
    expect(error).toBeUndefined();
    expect(other.seen.map((s) => JSON.parse(s.body.toString()).id)).toEqual([events[2]!.id, later.id]);
    expect(stdout).toContain(`→ ${other.url}: 200`);
  });

  it('the help and the README state the bound the journal keeps', () => {
    expect(replayVerb.flags!.last.description).toContain(`last ${DEFAULT_KEEP_DONE} done`);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain(
      `the newest **${DEFAULT_KEEP_DONE}** done ones`,
    );
  });

  it('refuses journal flags mixed with emulator selectors, or incomplete, before reading anything (exit 2, naming the flags)', async () => {
    const cases: Array<[Partial<ReplayOptions>, RegExp, string]> = [
      [
        { store: 'x', failed: true, since: '1h' },
        /--store, --failed replay from a listener's journal; --since select/,
        '--store, --failed, --since',
      ],
      [
        { last: 3, ids: ['Webhook:1'], type: 'CARD.STATE_CHANGE' },
        /<Webhook:id>, --type select from the emulator/,
        '--last, <Webhook:id>, --type',
      ],
      [{ failed: true }, /--failed need --store <file>/, '--store'],
      [{ store: 'x' }, /--store needs --failed or --last/, '--failed, --last'],
      // The forwarder's own error, about `to` (the CLI shows it as --to: test/e2e/core-input-errors.test.ts).
      [{ store: 'x', failed: true, to: 'ftp://x' }, /^"ftp:\/\/x" is not an http\(s\) URL/, 'to'],
    ];
    for (const [opts, message, field] of cases) {
      const { error } = await replay(opts);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ message: expect.stringMatching(message), input: field });
    }
    const missing = await replay({ store: join(tmpdir(), 'no-such-dir-svc', 'seen.log'), failed: true });
    expect(missing.error).toMatchObject({
      input: 'store',
      reason: 'UNREADABLE_JOURNAL',
      message: expect.stringMatching(/cannot read the journal .*ENOENT/),
    });
  });
});
