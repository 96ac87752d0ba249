/**
 * `svc api` on the signed credential endpoints: add an SMS_OTP credential to the wallet (the 202
 * signed with the EMAIL_OTP session's key) and remove it again with a signed DELETE, run() with
 * fake IO and spawned; the credential list shows each step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type ApiOptions } from '../../../commands/api/run.js';
import { api as apiSpec } from '../../../commands/api/verbs.js';
import { optionsWith } from '../../helpers/verb-options.js';
import { runSvc } from '../../helpers/spawn-svc.js';
import { authEnv, type AuthEnv } from '../auth/support.js';
import { login } from '../auth/login.js';

let t: AuthEnv;
beforeAll(async () => (t = await authEnv({ processingRetries: 1 })));
afterAll(() => t.close());

const opts = (method: string, path: string, o: Partial<ApiOptions> = {}): ApiOptions =>
  optionsWith(apiSpec, { method, path, ...o });

async function api(method: string, path: string, o: Partial<ApiOptions> = {}): Promise<unknown> {
  const d = t.deps({ globals: { json: true } });
  await run(opts(method, path, o), d);
  return d.stdout() === '' ? undefined : JSON.parse(d.stdout());
}
const credentialTypes = async (accountId: string) =>
  (
    (await api('GET', '/auth/credentials', { query: [`accountId=${accountId}`] })) as {
      data: { id: string; type: string }[];
    }
  ).data;

describe('svc api on signed credential endpoints', () => {
  it('adds an SMS_OTP credential (signed) and removes it (signed DELETE)', async () => {
    const session = await login(t);
    await api('PATCH', `/customers/${t.emu.fixtures.customerId}`, {
      rawField: ['customerType=INDIVIDUAL', 'phoneNumber=+15555550123'],
    });
    const added = (await api('POST', '/auth/credentials', {
      rawField: ['type=SMS_OTP', `accountId=${session.accountId}`],
    })) as { id: string; type: string };
    expect(added.type).toBe('SMS_OTP');
    expect((await credentialTypes(session.accountId)).map((c) => c.id)).toContain(added.id);
    expect(t.proxy.count('/auth/credentials', true)).toBeGreaterThanOrEqual(1);

    const before = t.proxy.count(`/auth/credentials/${added.id}`, true);
    expect(await api('DELETE', `/auth/credentials/${added.id}`)).toBeUndefined(); // 204
    expect(t.proxy.count(`/auth/credentials/${added.id}`, true) - before).toBe(2); // PROCESSING, then 204
    expect((await credentialTypes(session.accountId)).map((c) => c.id)).not.toContain(added.id);
  });

  it('spawned: the same removal; the last credential of the wallet is refused (exit 1, 400)', async () => {
    const session = await login(t);
    const added = JSON.parse(
      (
        await runSvc(
          ['--json', 'api', 'POST', '/auth/credentials', '-f', 'type=SMS_OTP', '-f', `accountId=${session.accountId}`],
          { env: t.env, configDir: t.configDir },
        )
      ).stdout,
    ) as { id: string };
    const removed = await runSvc(['api', 'DELETE', `/auth/credentials/${added.id}`, '--include'], {
      env: t.env,
      configDir: t.configDir,
    });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toMatch(/^HTTP 204$/m);

    const last = await runSvc(['--json', 'api', 'DELETE', `/auth/credentials/${t.emu.fixtures.credentialId}`], {
      env: t.env,
      configDir: t.configDir,
    });
    expect(last.code).toBe(1);
    expect(JSON.parse(last.stderr).error).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });
});
