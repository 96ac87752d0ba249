/**
 * The shipped production pin, through otpLogin and signerTrust over real HTTP
 * and real crypto: the production URL cannot be reached from a test, so the trust decision is made
 * for PRODUCTION_BASE_URL while the requests go to an emulator behind a proxy that plays the
 * service (the token's environment, an enclave signing with another key, or none).
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../src/http/client.js';
import { generateKeyPair } from '../../../src/crypto/keys.js';
import { otpLogin } from '../../../src/auth/otp-login.js';
import { signerTrust } from '../../../src/auth/signer-trust.js';
import { PRODUCTION_BASE_URL, PRODUCTION_OTP_SIGNER } from '../../../src/auth/signer-pins.js';
import { tokenEnvironment } from '../../../src/sandbox/environment.js';
import { VerificationError } from '../../../src/errors.js';
import type { Profile } from '../../../src/store/types.js';
import { useEnclaveProxy } from '../../helpers/enclave-proxy.js';

const { emu, proxy } = useEnclaveProxy();

const sandboxEnclave = generateKeyPair({ uncompressed: true });

/** One login whose signer is judged as if the client talked to the production URL. */
function loginAtProductionUrl(profile?: Profile) {
  const client = createClient({
    baseUrl: proxy.baseUrl,
    auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret },
  });
  let asked = 0;
  const trust = signerTrust({
    profile,
    profileName: 'default',
    baseUrl: PRODUCTION_BASE_URL,
    environment: () => {
      asked++;
      return tokenEnvironment(client);
    },
  });
  const login = otpLogin({
    client,
    credentialId: emu.fixtures.credentialId,
    trust,
    getCode: async () => '000000',
    maxAttempts: 1,
  });
  return { login, asked: () => asked };
}

describe('the production URL', () => {
  it('a production token keeps the shipped pin: another signer is refused before anything is sent', async () => {
    proxy.environment = 'production';
    proxy.signer = sandboxEnclave.privateKey;
    const { login } = loginAtProductionUrl();
    const error = await login.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VerificationError);
    expect((error as VerificationError).message).toContain(`not by the pinned signer ${PRODUCTION_OTP_SIGNER}`);
    expect((error as VerificationError).hint).toContain('is the production URL, whose signer ships with this client');
    // Without the CLI's commands, the fix is said in words (the CLI's are in test/e2e/profiles-and-pins.test.ts).
    expect((error as VerificationError).hint).toContain(
      "pin the one it publishes: set the profile's otp-signer to <key>.",
    );
  });

  it('a sandbox token trusts its own signer on first use, for sandbox use', async () => {
    proxy.environment = 'sandbox';
    proxy.signer = sandboxEnclave.privateKey;
    const { login, asked } = loginAtProductionUrl();
    const result = await login;
    expect(result.decision).toEqual({ kind: 'first-use', scope: 'sandbox' });
    expect(result.signerPublicKey).toBe(sandboxEnclave.publicKey);
    expect(asked()).toBe(1);
  });

  it('a sandbox token with a sandbox pin logs in with it; an unsigned bundle only for a sandbox token', async () => {
    proxy.environment = 'sandbox';
    proxy.signer = sandboxEnclave.privateKey;
    const pinned = { sandboxOtpSigners: { [PRODUCTION_BASE_URL]: sandboxEnclave.publicKey } };
    expect((await loginAtProductionUrl(pinned).login).decision).toEqual({ kind: 'pinned' });

    proxy.signer = 'unsigned';
    expect((await loginAtProductionUrl(pinned).login).decision).toEqual({ kind: 'unsigned' });
    proxy.environment = 'production';
    await expect(loginAtProductionUrl(pinned).login).rejects.toThrow(/no signer.*production token/);
  });
});
