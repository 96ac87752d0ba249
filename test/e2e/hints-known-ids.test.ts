/**
 * A suggestion names the ids svc knows instead of a placeholder to fill: `svc logout` suggests
 * revoking the active session by its id, `svc cards freeze Card:…` the update of that card, and
 * `session list` with no session to take the account from the login with the profile's credential.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import type { EmulatorReady } from '../helpers/spawned-emulator.js';

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
