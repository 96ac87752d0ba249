/**
 * The OTP signer pin is kept per base URL and `emulator
 * start` replaces its own URL's pin (a second run on the same port logs in again), `config unset`
 * forgets a pin, the mismatch hint names commands; a mistyped --profile is an error with a
 * suggestion, `config delete|rename` exist, and the emulator hands the current profile back on stop.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { useSpawnedEmulator, type EmulatorReady } from '../helpers/spawned-emulator.js';
import { openStore } from '../../src/store/index.js';
import { generateKeyPair } from '../../src/crypto/keys.js';
import { pinnedSigner, PRODUCTION_BASE_URL, PRODUCTION_OTP_SIGNER } from '../../src/auth/signer-pins.js';

const spawned = useSpawnedEmulator();

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const emulator = (configDir: string, port: number) => spawned.start(configDir, { port });

const envFor = (ready: EmulatorReady) => ({
  SERVICE_BASE_URL: ready.baseUrl,
  SERVICE_API_TOKEN_ID: ready.apiTokenId,
  SERVICE_API_CLIENT_SECRET: ready.apiClientSecret,
});
const login = (ready: EmulatorReady, configDir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  runSvc([...extra, 'otp', 'verify', '--credential', ready.fixtures.credentialId!, '--code', '000000'], {
    configDir,
    env,
  });

describe('OTP signer pins (item 4)', () => {
  it('a second emulator run on the same port replaces its own pin, in every profile that had one', async () => {
    const configDir = tempConfigDir();
    const port = await freePort();
    const first = await emulator(configDir, port);
    // "default" talks to the emulator through the environment: its pin is trusted on first use, for
    // sandbox tokens (the emulator's token is one).
    expect((await login(first, configDir, ['--profile', 'local'])).code).toBe(0);
    expect((await runSvc(['--profile', 'default', 'config', 'set', 'api-token-id', 'x'], { configDir })).code).toBe(0);
    const tofu = await login(first, configDir, ['--profile', 'default'], envFor(first));
    expect(tofu.code).toBe(0);
    expect(openStore({ dir: configDir }).getProfile('default')!.sandboxOtpSigners).toEqual({
      [first.baseUrl]: first.otpSignerPublicKey,
    });
    await spawned.stop();

    const second = await emulator(configDir, port);
    expect(second.baseUrl).toBe(first.baseUrl);
    expect(second.otpSignerPublicKey).not.toBe(first.otpSignerPublicKey);
    const local = await login(second, configDir, ['--profile', 'local']);
    expect(local.stderr).not.toMatch(/pinned signer/);
    expect(local.code).toBe(0);
    const again = await login(second, configDir, ['--profile', 'default'], envFor(second));
    expect(again.stderr).not.toMatch(/pinned signer/);
    expect(again.code).toBe(0);
  });

  it('a refused signer names the commands that fix it; config unset forgets the pin', async () => {
    const configDir = tempConfigDir();
    const ready = await emulator(configDir, 0);
    const impostor = generateKeyPair({ uncompressed: true }).publicKey;
    expect((await runSvc(['--profile', 'local', 'config', 'set', 'otp-signer', impostor], { configDir })).code).toBe(0);
    expect(openStore({ dir: configDir }).getProfile('local')!.otpSigners![ready.baseUrl]).toBe(impostor);

    const refused = await login(ready, configDir, ['--json']);
    expect(refused.code).toBe(1);
    const { error } = JSON.parse(refused.stderr) as { error: { type: string; hint: string } };
    expect(error.type).toBe('verification');
    expect(error.hint).toContain('svc --profile local config set otp-signer <key>');
    expect(error.hint).toContain('svc --profile local config unset otp-signer');
    expect(error.hint).not.toContain('otpSignerPublicKey');

    const unset = await runSvc(['--json', 'config', 'unset', 'otp-signer'], { configDir });
    expect(unset.code).toBe(0);
    expect(JSON.parse(unset.stdout)).toEqual({ profile: 'local', key: 'otp-signer', removed: true });
    const relogged = await login(ready, configDir);
    expect(relogged.code).toBe(0);
    expect(relogged.stderr).toMatch(/Trusted the OTP signer key on first use/);
  });

  it('the production URL has the provider signer pinned by default, other URLs none', () => {
    expect(pinnedSigner(undefined, PRODUCTION_BASE_URL)).toEqual({ key: PRODUCTION_OTP_SIGNER, source: 'shipped' });
    expect(pinnedSigner({ otpSigners: { [PRODUCTION_BASE_URL]: '04aa' } }, PRODUCTION_BASE_URL)?.key).toBe('04aa');
    expect(pinnedSigner(undefined, 'http://127.0.0.1:4010/2025-10-13')).toBeUndefined();
  });
});

describe('profiles (item 5)', () => {
  it('a mistyped --profile is exit 2 with a suggestion and creates nothing; config set still creates', async () => {
    const configDir = tempConfigDir();
    expect(
      (await runSvc(['--profile', 'staging', 'config', 'set', 'base-url', 'http://127.0.0.1:4010'], { configDir }))
        .code,
    ).toBe(0);
    const typo = await runSvc(['--profile', 'stagign', 'config', 'get', 'base-url'], { configDir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/No profile named "stagign" \(did you mean "staging"\?\)/);
    const viaEnv = await runSvc(['session', 'show'], { configDir, env: { SERVICE_PROFILE: 'stagin' } });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toMatch(/did you mean "staging"/);
    expect(Object.keys(openStore({ dir: configDir }).listProfiles())).toEqual(['staging']);
  });

  it('config rename keeps settings and the current mark; config delete asks for --yes, then removes keys too', async () => {
    const configDir = tempConfigDir();
    await runSvc(['--profile', 'old', 'config', 'set', 'base-url', 'http://127.0.0.1:4010'], { configDir });
    await runSvc(['config', 'use', 'old'], { configDir });
    const renamed = await runSvc(['--json', 'config', 'rename', 'old', 'new'], { configDir });
    expect(renamed.code).toBe(0);
    const store = openStore({ dir: configDir });
    expect(store.currentProfileName()).toBe('new');
    expect(store.getProfile('new')!.baseUrl).toBe('http://127.0.0.1:4010/2025-10-13');
    expect((await runSvc(['config', 'rename', 'nope', 'other'], { configDir })).code).toBe(2);

    const unconfirmed = await runSvc(['config', 'delete', 'new'], { configDir });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    expect((await runSvc(['--yes', 'config', 'delete', 'new'], { configDir })).code).toBe(0);
    expect(openStore({ dir: configDir }).listProfiles()).toEqual({});
  });

  it('emulator start makes "local" current only while it runs, then restores the previous profile', async () => {
    const configDir = tempConfigDir();
    await runSvc(['--profile', 'prod', 'config', 'set', 'base-url', 'https://api.lightspark.com/grid'], { configDir });
    await runSvc(['config', 'use', 'prod'], { configDir });
    await emulator(configDir, 0);
    expect(openStore({ dir: configDir }).currentProfileName()).toBe('local');
    expect(await spawned.stop('SIGINT')).toBe(0);
    expect(openStore({ dir: configDir }).currentProfileName()).toBe('prod');
  });
});
