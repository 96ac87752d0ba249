#!/usr/bin/env node
// `npm run chaos`: the chaos tests at full size (SVC_CHAOS=1: 60-second abuse runs, several crash
// cycles), then one table of tried / survived / lost. Loopback only. Needs no build of its own:
// vitest's global setup builds dist/ for the spawned CLIs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const reportFile = join(mkdtempSync(join(tmpdir(), 'svc-chaos-')), 'figures.jsonl');
const files = ['test/chaos', 'test/integration/webhook/crash.test.ts'];
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/vitest.config.ts', ...files],
  {
    stdio: 'inherit',
    env: { ...process.env, SVC_CHAOS: '1', SVC_CHAOS_REPORT: reportFile },
  },
);
const figures = existsSync(reportFile)
  ? readFileSync(reportFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
console.log('\n== chaos figures (tried / survived / lost)');
for (const f of figures) {
  console.log(
    `${f.suite.padEnd(10)} ${f.attack.padEnd(80)} ${String(f.tried).padStart(7)} ${String(f.survived).padStart(7)} ${String(f.lost).padStart(5)}${f.detail ? `  ${f.detail}` : ''}`,
  );
}
const lost = figures.reduce((n, f) => n + f.lost, 0);
console.log(`${figures.length} figures, ${lost} lost; vitest exited ${run.status}`);
process.exit(run.status ?? 1);
