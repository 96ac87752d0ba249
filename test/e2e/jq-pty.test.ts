/** --jq implies --json for stdout, but its errors on a terminal are prose, as gh's are; off a terminal, JSON. */
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { svcOnPty } from '../integration/auth/pty.js';
import { tempDir } from '../helpers/temp-dir.js';

const configDir = tempDir('svc-jq-pty-');
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

it('a filter outside the subset is exit 2 naming it: prose on a terminal, JSON in a pipe', async () => {
  const pty = svcOnPty(['--jq', '.a as $x | $x', 'version'], { SERVICE_CLI_CONFIG_DIR: configDir });
  const code = await pty.exited;
  pty.kill();
  expect(code).toBe(2);
  expect(pty.screen()).toMatch(/Error: --jq "\.a as \$x \| \$x": variables \(… as \$x\) is not supported/);
  expect(pty.screen()).not.toContain('{"error"');

  const piped = await runSvc(['--jq', '.a as $x | $x', 'version'], { configDir });
  expect(piped.code).toBe(2);
  expect(JSON.parse(piped.stderr).error.message).toContain('is not supported');
});

it('the new subset works end to end: object construction, map, select, //', async () => {
  const r = await runSvc(['--jq', '{v: .version} | to_entries | map(select(.value)) | .[0].key // "none"', 'version'], {
    configDir,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe('v\n');
});
