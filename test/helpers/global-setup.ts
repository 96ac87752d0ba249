/**
 * Builds dist/ once before the suite so tests that spawn bin/svc run the code under test, not a
 * stale build: tsc (incremental, so quick when nothing changed) and the esbuild bundles.
 * Turns on the emulator's exchange recorder for the run (workers and spawned emulators inherit the
 * variable) and, after the run, checks every recorded exchange against the service's public API
 * description (test/contract/): a difference fails the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkExchanges, report } from '../contract/check-exchanges.js';

const EXCHANGE_LOG_ENV = 'SVC_EMULATOR_EXCHANGE_LOG';

export default function setup(): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['.ci/build.mjs'], { cwd: root, stdio: 'inherit' });
  const folder = mkdtempSync(join(tmpdir(), 'svc-exchanges-'));
  process.env[EXCHANGE_LOG_ENV] = folder;
  return () => {
    try {
      const result = checkExchanges(folder);
      const { responses, requests, webhooks, refusals } = result.checked;
      console.log(
        `contract: ${responses} responses, ${requests} requests, ${refusals} schema refusals, ${webhooks} webhooks checked; ${result.forgiven} listed differences`,
      );
      if (result.failures.length > 0) {
        // A throw here is only printed by vitest ("error during close"); the exit code must say it.
        console.error(report(result));
        process.exitCode = 1;
      }
    } finally {
      if (!process.env.SVC_KEEP_EXCHANGES) rmSync(folder, { recursive: true, force: true });
    }
  };
}
