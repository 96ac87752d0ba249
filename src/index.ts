/**
 * The programmatic API of svc: everything the CLI does, without a terminal.
 *
 * - crypto: P-256 keys, the `Service-Wallet-Signature` API-key stamp, HPKE bundles
 *   (encryptedSessionSigningKey, otpEncryptionTargetBundle, encryptedOtpBundle), webhook signatures.
 * - http: an undici client with the service's auth schemes and typed errors.
 * - signing: the two-step signed retry (202 challenge, stamp, retry, follow PROCESSING).
 * - store: profiles and session keys in the OS config directory.
 * - auth: OTP, OAuth and passkey login (with a software passkey), credentials, session refresh
 *   (client-held and legacy), list and revoke.
 * - webhook: the listener (`startListener`): verifying, de-duplicating, journaling, forwarding.
 * - webhook-replay: re-delivery of the emulator's logged webhook events.
 * - api: any endpoint with its 202 challenge signed (`apiCall`), typed fields, pagination.
 * - trigger: the sandbox magic-value scenarios (`SCENARIOS`, `runScenario`).
 * - emulator: the embedded sandbox, `startEmulator(options)`.
 *
 * @example
 * ```ts
 * import { startEmulator, createClient, otpLogin } from 'service-cli';
 * const emu = await startEmulator({ port: 0 });
 * const client = createClient({ baseUrl: emu.baseUrl, auth: { kind: 'basic', tokenId: emu.apiTokenId, secret: emu.apiClientSecret } });
 * ```
 */
export * from './errors.js';
export * from './validate.js';
export * from './crypto/index.js';
export * from './http/index.js';
export * from './signing/index.js';
export * from './store/index.js';
export * from './auth/index.js';
export * from './webhook/index.js';
export * from './webhook-replay/index.js';
export * from './api/index.js';
export * from './trigger/index.js';
export { startEmulator, type EmulatorFixtures, type EmulatorOptions, type RunningEmulator } from './emulator/index.js';
