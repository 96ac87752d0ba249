/**
 * A vitest global setup: the run gets a temporary folder of its own (TMPDIR, which workers, and the
 * CLIs and emulators they spawn through svcEnv, inherit), so nothing a test makes lands in the
 * shared one. After the run the folder is removed, and anything a test left in it fails the run,
 * named: temporary folders hold session keys and credentials, so each test removes its own
 * (test/helpers/temp-dir.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What svc itself keeps in its temporary folder across runs, by design: V8's code cache of the CLI
 * bundles (bin/compile-cache.js) and Node's own compile cache. Not a test's leftovers.
 */
const CACHES = [`svc-compile-cache-${process.getuid?.() ?? ''}`, 'node-compile-cache'];

/** The entries of `dir` no test should have left there. */
export function leftovers(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !CACHES.includes(name))
    .sort()
    .map((name) => join(dir, name));
}

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), `svc-test-run-${process.pid}-`));
  process.env.TMPDIR = dir;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    try {
      const left = leftovers(dir);
      if (left.length > 0) {
        // A throw here is only printed by vitest ("error during close"); the exit code must say it.
        console.error(
          `temporary files left behind by the tests (they can hold keys; make folders with tempDir() from test/helpers/temp-dir.ts):\n${left.map((path) => `  ${path}`).join('\n')}`,
        );
        process.exitCode = 1;
      }
    } finally {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    }
  };
}
