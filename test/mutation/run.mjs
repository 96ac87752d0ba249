// `npm run mutation [scope…]`: Stryker over the money and security checks (scopes.mjs), one scope
// at a time so each mutant runs only the tests that guard it. Each scope must score at least
// BREAK_BELOW; the run ends non-zero when one does not. Reports: <os tmpdir>/svc-mutation/<scope>.json.
// Run after npm ci; it takes minutes per scope on two cores.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BREAK_BELOW, SCOPES } from './scopes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in SCOPES));
if (unknown.length > 0) {
  console.error(`Unknown scope ${unknown.join(', ')}; the scopes are: ${Object.keys(SCOPES).join(', ')}`);
  process.exit(2);
}
// Outside the tree: the lint and format checks would read the generated configs.
const reports = join(tmpdir(), 'svc-mutation');
mkdirSync(reports, { recursive: true });

const failed = [];
for (const name of asked.length > 0 ? asked : Object.keys(SCOPES)) {
  const scope = SCOPES[name];
  const config = join(reports, `${name}.config.json`);
  writeFileSync(
    config,
    JSON.stringify({
      testRunner: 'vitest',
      plugins: ['@stryker-mutator/vitest-runner'],
      vitest: { configFile: 'test/mutation/vitest.config.ts', related: false },
      coverageAnalysis: 'perTest',
      mutate: scope.mutate,
      concurrency: 2,
      timeoutMS: 30_000,
      thresholds: { high: 95, low: BREAK_BELOW, break: BREAK_BELOW },
      reporters: ['clear-text', 'progress', 'json'],
      jsonReporter: { fileName: join(reports, `${name}.json`) },
      tempDirName: '.stryker-tmp',
      cleanTempDir: 'always',
      incremental: false,
    }),
  );
  console.log(`\n== mutation scope ${name}: ${scope.mutate.join(', ')}`);
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', config],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SVC_MUTATION_TESTS: scope.tests.join(',') },
    },
  );
  if (run.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nBelow ${BREAK_BELOW}% (or failed to run): ${failed.join(', ')}`);
  process.exit(1);
}
