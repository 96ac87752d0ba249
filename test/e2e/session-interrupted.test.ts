import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSvc } from '../helpers/spawn-svc.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { originOf, recordingProxy, type RecordingProxy } from '../integration/auth/support.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../helpers/temp-dir.js';

const statePath = join(tempDir('svc-emu-'), 'state.json');
const configDir = tempDir('svc-test-');
let emu: RunningEmulator;
let proxy: RecordingProxy;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, statePath });
  proxy = await recordingProxy(originOf(emu.baseUrl));
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
});

const env = () => ({
  SERVICE_BASE_URL: proxy.baseUrl,
  SERVICE_API_TOKEN_ID: emu.apiTokenId,
  SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
});
const svc = (args: string[]) => runSvc(args, { env: env(), configDir });
const active = () => {
  const store = openStore({ dir: configDir });
  return store.getProfile('default')?.activeSessionId;
};

it('leaves the old session usable when the service dies after the 202', async () => {
  expect((await svc(['otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'])).code).toBe(0);
  const old = active()!;

  // Kill the emulator the moment the signed retry arrives (the 202 has been delivered by then).
  let killed: Promise<void> | undefined;
  proxy.intercept = (s) => {
    if (s.path.endsWith('/refresh') && s.signed) {
      killed = emu.close();
      return 'drop';
    }
    return 'forward';
  };
  const broken = await svc(['session', 'refresh']);
  expect(broken.code).toBe(1);
  expect(proxy.count('/refresh', false)).toBe(1);
  expect(killed).toBeDefined();
  await killed;
  expect(active()).toBe(old);
  expect(openStore({ dir: configDir }).getSession(old)).toBeDefined();

  // Same state file, new process, new port: the old key still refreshes.
  proxy.intercept = undefined;
  emu = await startEmulator({ port: 0, statePath });
  proxy.target = originOf(emu.baseUrl);
  const r = await svc(['session', 'refresh']);
  expect(r.stderr).toMatch(/Refreshed/);
  expect(r.code).toBe(0);
  expect(active()).not.toBe(old);
});
