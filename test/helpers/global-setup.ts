/**
 * Builds dist/ once before the suite so tests that spawn bin/svc run the code under test, not a
 * stale build: tsc (incremental, about a second when nothing changed) and the esbuild bundles.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['.ci/build.mjs'], { cwd: root, stdio: 'inherit' });
}
