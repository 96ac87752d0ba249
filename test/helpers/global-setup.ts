/**
 * Builds dist/ once before the suite so tests that spawn bin/svc run the code under test,
 * not a stale build. tsc is incremental, so an up-to-date tree costs about a second.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
}
