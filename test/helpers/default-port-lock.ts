/**
 * A README line runs as written, so `svc webhook listen` binds its default port, one for the whole
 * machine. Test files run side by side (the README examples, the quick start), so whoever runs such a
 * line holds this lock while its server lives. The lock is a folder in the run's own TMPDIR
 * (private-tmpdir.ts): mkdir is atomic across processes, and a lock a crash left fails the run's
 * leftover check instead of going unseen.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The default port a command line binds, when it names none. */
export function defaultPortOf(line: string): number | undefined {
  return /\bsvc webhook listen\b/.test(line) && !/--port\b/.test(line) ? 4242 : undefined;
}

/** Runs `use` while holding port's lock, waiting (up to timeoutMs) for another holder to finish. */
export async function withPortLock<T>(port: number, use: () => Promise<T>, timeoutMs = 300_000): Promise<T> {
  const lock = join(tmpdir(), `svc-default-port-${port}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (Date.now() > deadline) throw new Error(`port ${port} stayed taken by another test file (${lock})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await use();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
