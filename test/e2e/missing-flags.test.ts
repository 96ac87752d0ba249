/** Required flags left out are named together in one run (exit 2), prose or --json alike. */
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const configDir = tempDir('svc-missing-flags-');
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

it('names every missing required flag at once', async () => {
  const r = await runSvc(['keys', 'encrypt-otp', '--code', '000000'], { configDir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('2 inputs need fixing');
  expect(r.stderr).toContain('--bundle <json> is required');
  expect(r.stderr).toContain('--signer <hex> is required');

  const json = await runSvc(['--json', 'keys', 'encrypt-otp'], { configDir });
  expect(json.code).toBe(2);
  const fields = (JSON.parse(json.stderr).error.problems as { field: string }[]).map((p) => p.field);
  expect(fields.join(' ')).toMatch(/--bundle.*--code.*--signer/);
});
