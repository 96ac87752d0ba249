/**
 * A delivery is acknowledged only once the journal holding it is on disk. The crash technique of
 * crash.test.ts (the real CLI, SIGKILL, a restart on the same --store, the service's redelivery),
 * with the kill placed exactly instead of by timing: a preload (--require, as the e2e tests load
 * their hooks) holds the journal's Nth fdatasync forever and says so on stderr, so the listener is
 * killed while deliveries wait for it, between receipt and their group commit.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../../helpers/spawn-svc.js';
import { deliver, envelope, keys } from './helpers.js';
import { lines, spawnListener, type SpawnedListener } from './spawn-listener.js';

const HELD = 'test hook: fdatasync of the journal held';

/** Wraps fs.fdatasync: from the HOLD_FROM-th call on the file HOLD_PATH on, the call never completes. */
const PRELOAD = `
const fs = require('node:fs');
const real = fs.fdatasync;
let calls = 0;
fs.fdatasync = function (fd, callback) {
  let path;
  try { path = fs.readlinkSync('/proc/self/fd/' + fd); } catch {}
  if (path === process.env.HOLD_PATH && ++calls >= Number(process.env.HOLD_FROM)) {
    process.stderr.write(${JSON.stringify(`${HELD}\n`)});
    return; // never called back: the bytes were written, whether they reached the disk is unknown
  }
  return real.call(this, fd, callback);
};
`;

const temps: string[] = [];
const running: SpawnedListener[] = [];
afterEach(() => {
  for (const l of running.splice(0)) l.kill();
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: () => string): Promise<void> {
  for (const deadline = Date.now() + 15_000; !check(); ) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function listener(store: string, configDir: string, env: NodeJS.ProcessEnv = {}): Promise<SpawnedListener> {
  const args = ['--json', 'webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem, '--store', store];
  const l = await spawnListener(args, configDir, env);
  running.push(l);
  return l;
}

interface Printed {
  id: string;
  redelivered?: boolean;
}
const printed = (l: SpawnedListener) => lines(l.stdout()).map((line) => JSON.parse(line) as Printed);

/**
 * Three deliveries sent at once to a listener whose `holdFrom`-th journal fdatasync never completes;
 * killed once it is held; restarted; everything sent again as the service does without a 2xx.
 */
async function killedWhileSyncing(holdFrom: number) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fsync-held-'));
  const configDir = tempConfigDir();
  temps.push(dir, configDir);
  const preload = join(dir, 'hold-fdatasync.cjs');
  writeFileSync(preload, PRELOAD);
  const store = join(realpathSync(dir), 'journal');
  const first = await listener(store, configDir, {
    NODE_OPTIONS: `--require ${preload}`,
    HOLD_PATH: store,
    HOLD_FROM: String(holdFrom),
  });
  const events = [envelope(), envelope(), envelope()];
  const answers = events.map((event) =>
    deliver(first.url, event).then(
      (r) => r.status,
      () => 0, // the connection died with the listener: no answer
    ),
  );
  await until(
    () => first.stderr().includes(HELD),
    () => `the journal's fdatasync was never held\n${first.stderr()}`,
  );
  if (holdFrom > 1) await first.waitForLines(1); // past the first commit: a line is out before the second
  const shownBeforeKill = printed(first);
  await first.crash(); // SIGKILL while the deliveries wait for the held fdatasync
  const firstStatuses = await Promise.all(answers);

  const second = await listener(store, configDir);
  const again = await Promise.all(events.map((event) => deliver(second.url, event)));
  expect(await second.stop()).toBe(0);
  return { events, firstStatuses, shownBeforeKill, second: printed(second), again: again.map((r) => r.status) };
}

describe('--store: killed between receiving deliveries and their fdatasync', () => {
  it('waiting for the commit of their begun lines: none acknowledged, none shown; after the restart each shown once', async () => {
    const run = await killedWhileSyncing(1);
    expect(run.firstStatuses).toEqual([0, 0, 0]);
    expect(run.shownBeforeKill).toEqual([]);
    expect(run.again).toEqual([200, 200, 200]);
    expect(run.second.map((p) => p.id).sort()).toEqual(run.events.map((e) => e.id).sort());
  }, 60_000);

  it('shown, waiting for the commit that records them: none acknowledged; after the restart none lost, any shown again marked redelivered', async () => {
    const run = await killedWhileSyncing(2);
    expect(run.firstStatuses).toEqual([0, 0, 0]);
    expect(run.shownBeforeKill.length).toBeGreaterThan(0);
    expect(run.again).toEqual([200, 200, 200]);
    // Each delivery shown by one run or the other. Its done line reached the file before the kill
    // (a SIGKILL loses no written byte; only the fdatasync was held), so the restart may know it as
    // done; a delivery shown a second time is marked as possibly shown before.
    const all = [...run.shownBeforeKill, ...run.second].map((p) => p.id);
    for (const event of run.events) expect(all).toContain(event.id);
    const before = new Set(run.shownBeforeKill.map((p) => p.id));
    for (const shown of run.second.filter((p) => before.has(p.id))) expect(shown.redelivered).toBe(true);
  }, 60_000);
});
