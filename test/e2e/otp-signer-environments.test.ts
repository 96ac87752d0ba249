/**
 * With a spawned svc: the OTP signer is pinned per base URL and token environment.
 * An emulator stands behind a proxy that plays the remote service (tokens of either environment,
 * an enclave signing with a key of the test's choosing, or none): a sandbox token trusts its signer
 * on first use and pins it for sandbox use only; a different one later is refused with the command
 * that fixes it; an unsigned bundle passes for a sandbox token with a warning and never for production.
 */
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/crypto/keys.js';
import { openStore } from '../../src/store/index.js';
import { runSvc, tempConfigDir } from '../helpers/spawn-svc.js';
import { useEnclaveProxy } from '../helpers/enclave-proxy.js';

const { emu, proxy } = useEnclaveProxy();

const enclaveA = generateKeyPair({ uncompressed: true });
const enclaveB = generateKeyPair({ uncompressed: true });

function login(configDir: string, json = false) {
  return runSvc(
    [...(json ? ['--json'] : []), 'otp', 'verify', '--credential', emu.fixtures.credentialId, '--code', '000000'],
    {
      configDir,
      env: {
        SERVICE_BASE_URL: proxy.baseUrl,
        SERVICE_API_TOKEN_ID: emu.apiTokenId,
        SERVICE_API_CLIENT_SECRET: emu.apiClientSecret,
      },
    },
  );
}
const pinsIn = (configDir: string) => {
  const p = openStore({ dir: configDir }).getProfile('default');
  return { any: p?.otpSigners, sandbox: p?.sandboxOtpSigners };
};

describe('a sandbox token', () => {
  it('trusts its signer on first use, saying so, and pins it for sandbox use of the base URL only', async () => {
    const configDir = tempConfigDir();
    proxy.environment = 'sandbox';
    proxy.signer = enclaveA.privateKey;
    const first = await login(configDir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      `Trusted the OTP signer key on first use and pinned it for sandbox tokens at ${proxy.baseUrl}`,
    );
    expect(first.stderr).toContain('production tokens keep their own pin');
    expect(pinsIn(configDir)).toEqual({ any: undefined, sandbox: { [proxy.baseUrl]: enclaveA.publicKey } });

    const again = await login(configDir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Trusted the OTP signer');

    // The pin is for sandbox tokens: a production token at the same URL does not inherit it.
    proxy.environment = 'production';
    const prod = await login(configDir);
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.stderr).toContain(`pinned it for ${proxy.baseUrl}`);
    expect(pinsIn(configDir).any).toEqual({ [proxy.baseUrl]: enclaveA.publicKey });
  });

  it('refuses a different signer on the next login, naming the command that forgets the pin', async () => {
    const configDir = tempConfigDir();
    proxy.environment = 'sandbox';
    proxy.signer = enclaveA.privateKey;
    expect((await login(configDir)).code).toBe(0);

    proxy.signer = enclaveB.privateKey;
    const refused = await login(configDir, true);
    expect(refused.code).toBe(1);
    const { error } = JSON.parse(refused.stderr) as { error: { type: string; message: string; hint: string } };
    expect(error.type).toBe('verification');
    expect(error.message).toContain(`not by the sandbox signer ${enclaveA.publicKey}`);
    expect(error.hint).toContain('Nothing was encrypted or sent.');
    expect(error.hint).toContain('svc --profile default config unset sandbox-otp-signer');
    expect(pinsIn(configDir).sandbox).toEqual({ [proxy.baseUrl]: enclaveA.publicKey });

    const unset = await runSvc(['--base-url', proxy.baseUrl, 'config', 'unset', 'sandbox-otp-signer'], { configDir });
    expect(unset.code, unset.stderr).toBe(0);
    const relogged = await login(configDir);
    expect(relogged.code, relogged.stderr).toBe(0);
    expect(relogged.stderr).toContain('Trusted the OTP signer key on first use');
    expect(pinsIn(configDir).sandbox).toEqual({ [proxy.baseUrl]: enclaveB.publicKey });
  });

  it('logs in with an unsigned bundle, with a warning, and pins nothing', async () => {
    const configDir = tempConfigDir();
    proxy.environment = 'sandbox';
    proxy.signer = 'unsigned';
    const r = await login(configDir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/OTP bundle with no signer .*Accepted only because the API token is a sandbox token/s);
    expect(pinsIn(configDir)).toEqual({ any: undefined, sandbox: undefined });
  });
});

describe('a production token', () => {
  it('refuses a signer other than the pinned one, even where a sandbox token trusted it', async () => {
    const configDir = tempConfigDir();
    proxy.environment = 'sandbox';
    proxy.signer = enclaveB.privateKey;
    expect((await login(configDir)).code).toBe(0); // pinned for sandbox use
    const pinned = await runSvc(['--base-url', proxy.baseUrl, 'config', 'set', 'otp-signer', enclaveA.publicKey], {
      configDir,
    });
    expect(pinned.code, pinned.stderr).toBe(0);

    proxy.environment = 'production';
    const refused = await login(configDir, true);
    expect(refused.code).toBe(1);
    const { error } = JSON.parse(refused.stderr) as { error: { message: string; hint: string } };
    expect(error.message).toContain(`signed by ${enclaveB.publicKey}, not by the pinned signer ${enclaveA.publicKey}`);
    expect(error.hint).toContain('svc --profile default config set otp-signer <key>');
    expect(openStore({ dir: configDir }).listSessions()).toHaveLength(1); // only the sandbox login's
  });

  it('refuses an unsigned bundle and sends nothing', async () => {
    const configDir = tempConfigDir();
    proxy.environment = 'production';
    proxy.signer = 'unsigned';
    const refused = await login(configDir, true);
    expect(refused.code).toBe(1);
    const { error } = JSON.parse(refused.stderr) as { error: { message: string; hint: string } };
    expect(error.message).toContain('it has no signer');
    expect(error.message).toContain('the API token is a production token');
    expect(error.hint).toContain('Nothing was encrypted or sent.');
    expect(pinsIn(configDir)).toEqual({ any: undefined, sandbox: undefined });
  });
});
