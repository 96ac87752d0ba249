/**
 * `svc session show` answers from the store alone: the customer whose wallet a session signs for is
 * stored at login and carried over by a refresh, so it is named with the emulator stopped. A session
 * file written before svc kept it still works: the service is asked while it answers, and the
 * customer is reported unknown (not an error) when it cannot be asked.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc, startSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import type { EmulatorReady } from '../helpers/spawned-emulator.js';
import { sessionFileName } from '../../src/store/names.js';

async function loggedIn(configDir: string) {
  const emulator = startSvc(['--json', 'emulator', 'start', '--port', '0'], { configDir });
  try {
    const ready = JSON.parse(await emulator.firstLine) as EmulatorReady;
    const json = async (args: string[]) => {
      const r = await runSvc(['--json', ...args], { configDir });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };
    const login = await json(['otp', 'verify', '--credential', ready.fixtures.credentialId!, '--code', '000000']);
    return { emulator, ready, json, login: login as { id: string } };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}

// The emulator's profile by name: stopping it makes the one current before it current again.
const show = (configDir: string) => runSvc(['--profile', 'local', 'session', 'show'], { configDir });
const showJson = async (configDir: string) => {
  const r = await runSvc(['--json', '--profile', 'local', 'session', 'show'], { configDir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { id: string; accountId: string; customerId: string | null };
};

describe('session show with the service out of reach', () => {
  it('names the customer stored at login, and after a refresh, with the emulator stopped', async () => {
    const configDir = tempConfigDir();
    const { emulator, ready, json, login } = await loggedIn(configDir);
    const { accountId, customerId } = ready.fixtures;
    let refreshedId: string;
    try {
      refreshedId = (await json(['session', 'refresh'])).id;
      expect(refreshedId).not.toBe(login.id);
    } finally {
      await emulator.stop();
    }

    const text = await show(configDir);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Session:    ${refreshedId}`);
    expect(text.stdout).toMatch(new RegExp(`Signs for: +wallet ${accountId} of customer ${customerId}`));
    expect(await showJson(configDir)).toMatchObject({ id: refreshedId, accountId, customerId });
  }, 120_000);

  it('a session stored without its customer (an older svc) asks the service, and says unknown offline', async () => {
    const configDir = tempConfigDir();
    const { emulator, ready, login } = await loggedIn(configDir);
    const { accountId, customerId } = ready.fixtures;
    // The file as an svc that did not keep the customer wrote it.
    const file = join(configDir, 'sessions', `${sessionFileName(login.id)}.json`);
    const { customerId: kept, ...older } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(kept).toBe(customerId);
    writeFileSync(file, JSON.stringify(older), { mode: 0o600 });
    try {
      expect(await showJson(configDir)).toMatchObject({ id: login.id, accountId, customerId });
    } finally {
      await emulator.stop();
    }

    const text = await show(configDir);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`Signs for: +wallet ${accountId} of a customer the service did not name`));
    expect(await showJson(configDir)).toMatchObject({ id: login.id, accountId, customerId: null });
  }, 120_000);
});
