/**
 * A core error names its input and a reason; the spawned CLI shows it as the flag the user typed, in
 * text and --json (src/errors.ts, commands/input-syntax.ts), with the CLI's hint for that reason.
 */
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';

const TOKEN = { SERVICE_API_TOKEN_ID: 'tok', SERVICE_API_CLIENT_SECRET: 'secret' };

describe('core input errors in the CLI', () => {
  it('a bad global flag value is named as --base-url, with the reason under --json', async () => {
    const text = await runSvc(['--base-url', 'ftp://x', 'customers', 'list'], { env: TOKEN });
    expect(text.code).toBe(2);
    expect(text.stderr).toBe('Error: --base-url: Invalid base URL "ftp://x": only http and https are supported\n');
    const json = await runSvc(['--json', '--base-url', 'ftp://x', 'customers', 'list'], { env: TOKEN });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error).toEqual({
      type: 'usage',
      message: 'Invalid base URL "ftp://x": only http and https are supported',
      field: '--base-url',
      reason: 'UNSUPPORTED_SCHEME',
    });
  });

  it("a verb's own flag and argument are named by their syntax, and the hint names the CLI's flag", async () => {
    const query = await runSvc(['--json', 'api', 'GET', '/customers', '--query', 'limit'], { env: TOKEN });
    expect(JSON.parse(query.stderr).error).toMatchObject({ field: '--query', reason: 'NOT_KEY_VALUE' });
    const path = await runSvc(['api', 'GET', 'https://elsewhere.invalid/customers'], { env: TOKEN });
    expect(path.code).toBe(2);
    expect(path.stderr).toMatch(/^Error: <path>: The path must be relative to the base URL/);
    expect(path.stderr).toContain('Hint: Point svc at another service with --base-url.');
  });

  it('a missing base URL names the flag and the variable that set it', async () => {
    const missing = await runSvc(['customers', 'list'], { env: TOKEN });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^Error: --base-url: No base URL for profile "default"\nHint: Pass --base-url or set SERVICE_BASE_URL\./,
    );
    const noToken = await runSvc(['--base-url', 'http://127.0.0.1:1', 'customers', 'list']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('Hint: For a local sandbox, run `svc emulator start --detach`');
  });
});
