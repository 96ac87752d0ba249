/**
 * A suggestion names the ids svc knows instead of a placeholder to fill: `svc logout` suggests
 * revoking the active session by its id, `svc cards freeze Card:…` the update of that card, and
 * `session list` and `credentials list` with no session to take the account from the login with the
 * profile's credential.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import type { EmulatorReady } from '../helpers/spawned-emulator.js';
import { openStore } from '../../src/store/store.js';

const configDir = tempConfigDir();
const emulator = startSvc(['--json', 'emulator', 'start', '--port', '0'], { configDir });
afterAll(() => emulator.stop());

describe('suggestions with the ids svc knows', () => {
  // First: the emulator's profile holds no session yet, but names the fixture's credential.
  it('session list with no session names the login with the profile’s credential', async () => {
    const ready = JSON.parse(await emulator.firstLine) as EmulatorReady;
    const r = await runSvc(['session', 'list'], { configDir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`log in first: svc otp verify --credential ${ready.fixtures.credentialId}`);
    const credentials = await runSvc(['credentials', 'list'], { configDir });
    expect(credentials.code).toBe(2);
    expect(credentials.stderr).toContain(`log in first: svc otp verify --credential ${ready.fixtures.credentialId}`);
  });

  it('logout suggests revoking the active session by its id, in text and --json', async () => {
    const ready = JSON.parse(await emulator.firstLine) as EmulatorReady;
    const login = await runSvc(
      ['--json', 'otp', 'verify', '--credential', ready.fixtures.credentialId!, '--code', '000000'],
      { configDir },
    );
    expect(login.code, login.stderr).toBe(0);
    const { id } = JSON.parse(login.stdout) as { id: string };

    const text = await runSvc(['logout'], { configDir });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(`did you mean svc session revoke ${id}?`);
    const json = await runSvc(['--json', 'logout'], { configDir });
    expect(JSON.parse(json.stderr).error.hint).toContain(`svc session revoke ${id}?`);
  });

  it('credentials remove of the active session’s own credential names a held session that can approve it', async () => {
    const ready = JSON.parse(await emulator.firstLine) as EmulatorReady;
    const { credentialId, accountId } = ready.fixtures;
    const refused = await runSvc(['--yes', 'credentials', 'remove', credentialId!], { configDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`svc credentials list --account ${accountId}`);

    // A session of the same wallet made with another credential, held here: the one to approve with.
    const other = `Session:${randomUUID()}`;
    openStore({ dir: configDir }).saveSession({
      id: other,
      accountId: accountId!,
      type: 'SMS_OTP',
      nickname: '+15555550123',
      expiresAt: '2099-01-01T00:00:00.000Z',
      privateKey: '11'.repeat(32),
      publicKey: `02${'22'.repeat(32)}`,
      profile: 'local',
      credentialId: `AuthMethod:${randomUUID()}`,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const named = await runSvc(['--yes', 'credentials', 'remove', credentialId!], { configDir });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain(`svc credentials remove ${credentialId} --session ${other}`);
    openStore({ dir: configDir }).deleteSession(other);
  });

  it('logout with no session held keeps the placeholder', async () => {
    const r = await runSvc(['logout']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean svc session revoke <Session:id>?');
  });

  it('cards freeze and unfreeze suggest the update of the card named', async () => {
    const card = `Card:${randomUUID()}`;
    const freeze = await runSvc(['cards', 'freeze', card]);
    expect(freeze.code).toBe(2);
    expect(freeze.stderr).toContain(`svc cards update ${card} --state FROZEN`);
    const unfreeze = await runSvc(['--json', 'cards', 'unfreeze', card]);
    expect(JSON.parse(unfreeze.stderr).error.hint).toContain(`svc cards update ${card} --state ACTIVE`);
  });
});
