/**
 * Temporary folders for tests. They hold session keys and credentials, so every one is removed:
 * a folder made with tempDir() is removed when its test file is done (the afterAll hook that
 * test/helpers/temp-dir-cleanup.ts, a vitest setup file, adds to every file), wherever it was made
 * (at the top of a file, in a hook or in a test). Folders made any other way and left behind fail
 * the run (test/helpers/private-tmpdir.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new empty folder under the run's temporary folder, removed when the test file is done. */
export function tempDir(prefix = 'svc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir() made so far (the setup file calls this after each test file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
