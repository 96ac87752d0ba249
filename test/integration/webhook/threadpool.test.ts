/**
 * `svc webhook listen` verifies on libuv's threadpool and sizes it to the machine (one thread per
 * core, at least 2) unless UV_THREADPOOL_SIZE says otherwise. Counted from /proc: the difference
 * between two listeners is their pool sizes, everything else in node being the same.
 */
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../../helpers/spawn-svc.js';
import { deliver, envelope, keys } from './helpers.js';
import { spawnListener, type SpawnedListener } from './spawn-listener.js';

const spawned: SpawnedListener[] = [];
afterEach(async () => {
  for (const l of spawned.splice(0)) await l.stop();
});

async function threadsOfListener(env: NodeJS.ProcessEnv): Promise<number> {
  const l = await spawnListener(
    ['webhook', 'listen', '--port', '0', '--public-key', keys.publicKeyPem],
    tempConfigDir(),
    env,
  );
  spawned.push(l);
  expect((await deliver(l.url, envelope())).status).toBe(200); // the pool has run a verification
  return readdirSync(`/proc/${l.pid}/task`).length;
}

describe.runIf(existsSync('/proc/self/task'))('svc webhook listen threadpool', () => {
  it('has one verifying thread per core (at least 2); an explicit UV_THREADPOOL_SIZE wins', async () => {
    const sized = await threadsOfListener({});
    const one = await threadsOfListener({ UV_THREADPOOL_SIZE: '1' });
    expect(sized - one).toBe(Math.max(2, availableParallelism()) - 1);
  });
});
