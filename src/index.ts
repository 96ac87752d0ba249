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
// The public surface, named: a name not listed here is internal, free to change.
/** The errors every part throws, each with a kind the CLI maps to an exit code. */
export { ApiError, AuthRequiredError, CancelledError, ChallengeExpiredError } from './errors.js';
export { InsecureTransportError, InterruptedError, NetworkError, RejectedInputError } from './errors.js';
export { ResponseTooLargeError, StillProcessingError, StopFailedError, SvcError, UsageError } from './errors.js';
export { VerificationError } from './errors.js';
export type { FieldConstraint, FieldError, InputErrorOptions, InputProblem } from './errors.js';

/** Checks of identifiers and amounts, as the CLI applies them to flags. */
export { UMA_ADDRESS_PATTERN, idPattern, requireCurrency, requireId, requireInteger } from './validate.js';
export { requireUmaAddress } from './validate.js';
export type { IdKind } from './validate.js';

/** P-256 keys, API-key stamps, HPKE bundles and webhook signatures. */
export { CLIENT_PUBLIC_KEY_PATTERN, STAMP_SCHEME, StampError, bytesToHex, compressPublicKey } from './crypto/index.js';
export { createAsyncWebhookVerifier, createOtpTargetBundle, createStamp, createStamper } from './crypto/index.js';
export { createWebhookVerifier, decompressPublicKey, decryptOtpBundle } from './crypto/index.js';
export { decryptSessionSigningKey, encryptOtpBundle, generateKeyPair, generateWebhookKeyPair } from './crypto/index.js';
export { hexToBytes, hpkeOpen, hpkeSeal, isCompressedPublicKey, parseStamp } from './crypto/index.js';
export { parseWebhookPublicKey, publicKeyFromPrivate, sealSessionSigningKey } from './crypto/index.js';
export { signOtpTargetData, signWebhookBody, validateClientPublicKey, validatePrivateKey } from './crypto/index.js';
export { verifyOtpTargetBundle, verifyStamp } from './crypto/index.js';
export type { KeyPair, OtpTarget, Stamp } from './crypto/index.js';

/** The API client and its base URL. */
export { API_VERSION, abortableSleep, createClient, normalizeBaseUrl } from './http/index.js';
export type { ApiClient, ApiResponse, Auth, ClientOptions, HttpLogEntry, RequestOptions } from './http/index.js';

/** The two-step signed retry. */
export { MAX_PROCESSING_RESENDS, parseChallenge, signedRequest } from './signing/index.js';
export type { SignedRequestChallenge, SignedRequestHooks, SignedRequestOptions } from './signing/index.js';

/** Profiles and session keys. */
export { PROJECT_NAME, StoreError, openStore, resolveEndpoint, selectProfile } from './store/index.js';
export { selectProfileName } from './store/index.js';
export type { Endpoint, Profile, SelectedProfile, Store, StoredSession } from './store/index.js';

/** Login, credentials and sessions. */
export { LOCAL_RELYING_PARTY, SANDBOX_IDENTITY, addCredential, assertPasskey, attestPasskey } from './auth/index.js';
export { checkTokenNonce, createSoftwarePasskey, isExpired, isWrongOtp, listCredentials } from './auth/index.js';
export { listSessions, loginSession, mintSandboxToken, newOauthClientKey, oauthLogin } from './auth/index.js';
export { oidcNonce, openSealedSession, otpLogin, parseAuthSession, passkeyFolder, passkeyLogin } from './auth/index.js';
export { passkeyPublicKey, pendingOauthFolder, publicView, reauthWords, refreshProfileSession } from './auth/index.js';
export { refreshSession, refreshableSession, registrationChallenge, removeCredential } from './auth/index.js';
export { revokeSession, storeLogin, storedSession, tokenClaims, withReauth } from './auth/index.js';
export type { AddCredentialOptions, AuthMethod, AuthSession, Credential, CredentialType } from './auth/index.js';
export type { LoginResult, OauthClientKey, OtpChallengeInfo, OtpLoginOptions, OtpLoginResult } from './auth/index.js';
export type { PasskeyAssertion, PasskeyAttestation, PendingOauthKey, ProfileRefreshHooks } from './auth/index.js';
export type { ProfileRefreshOptions, RefreshOptions, RefreshResult, RelyingParty } from './auth/index.js';
export type { RevokeOptions, SandboxIdentity, SessionKeys, Signer, SoftwarePasskey } from './auth/index.js';
export type { StoredPasskey } from './auth/index.js';

/** The webhook listener. */
export { CardStates, DEFAULT_FORWARD_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES } from './webhook/index.js';
export { FUNDING_SOURCE_CHANGE, SIGNATURE_HEADER, STATE_CHANGE, createForwarder } from './webhook/index.js';
export { createWebhookReceiver, describeEvent, eventRecord, forwardTarget, forwardUrl } from './webhook/index.js';
export { openSeenIds, parseEnvelope, readJournal, reforward, reforwardOutcome } from './webhook/index.js';
export { selectFromJournal, serviceHeaders, startListener } from './webhook/index.js';
export type { AcceptedEvent, CardState, DedupeOptions, EmulatorAccess, EmulatorNews } from './webhook/index.js';
export type { EventParts, EventRecord, ForwardResult, Forwarder, ForwarderOptions } from './webhook/index.js';
export type { InterruptedDelivery, JournalEntry, JournalSelection, Listener, ListenerConfig } from './webhook/index.js';
export type { ListenerEvent, ListenerInput, ReceiverOptions, ReceiverStats } from './webhook/index.js';
export type { ReforwardOutcome, ReforwardResult, Rejection, SeenIds, Tone, Verify } from './webhook/index.js';
export type { WebhookEvent, WebhookReceiver } from './webhook/index.js';

/** Re-delivery of logged webhook events. */
export { REPLAY_PATH, SINCE_FORMS, mayBeEmulator, replayEvents, resolveSince } from './webhook-replay/index.js';
export { sinceProblem } from './webhook-replay/index.js';
export type { ReplayOutcome, ReplayRequest, ReplayResult } from './webhook-replay/index.js';

/** Any endpoint, signed where it asks (`apiCall`), with typed fields and pagination. */
export { METHODS, apiCall, buildFields, flattenToQuery, idempotencyKey, normalizePath, paginate } from './api/index.js';
export { parseHeaders, parseQuery, queryString, requireMethod } from './api/index.js';
export type { ApiCallOptions, ApiCallResult, FieldArg, FieldKind, Json, PageOptions, ReadValue } from './api/index.js';

/** The sandbox scenarios. */
export { ProductionTokenError, RECIPE_INPUTS, SCENARIOS, UMA_SANDBOX_DOMAIN, assertSandbox } from './trigger/index.js';
export { checkInputs, emulatorEventLog, findScenario, inputProblems, isRunnable, recipeFor } from './trigger/index.js';
export { runScenario, withSet } from './trigger/index.js';
export type { Area, EventLogReader, RawInputs, RecipeInputs, RecipeName, Scenario } from './trigger/index.js';
export type { TriggerInput, TriggerInputs, TriggerOptions, TriggerProblem, TriggerReport } from './trigger/index.js';
export { startEmulator, type EmulatorFixtures, type EmulatorOptions, type RunningEmulator } from './emulator/index.js';
