/** Shapes of the local store (openStore in store.ts). */

/** One named profile in config.json: where to connect, credentials, and the keys pinned for it. */
export interface Profile {
  baseUrl?: string;
  apiTokenId?: string;
  apiClientSecret?: string;
  accessToken?: string;
  /** A profile-wide OTP signer pin (uncompressed hex); a pin for the base URL in use wins (otpSigners). */
  otpSignerPublicKey?: string;
  /** Base URL → the enclave key that must have signed its OTP target bundles, pinned on first use. */
  otpSigners?: Record<string, string>;
  /**
   * Base URL → the enclave key pinned for sandbox tokens there, trusted on first use. One base URL may
   * serve both environments, each signing with its own key (src/auth/signer-trust.ts).
   */
  sandboxOtpSigners?: Record<string, string>;
  /** The key X-Service-Signature is verified with (PEM or hex). */
  webhookPublicKey?: string;
  /** The session whose key signs by default; its file is under sessions/. */
  activeSessionId?: string;
  /** The OTP credential an OTP login offers when none is named (the emulator's fixture). */
  credentialId?: string;
}

/** A session whose signing key this machine holds (its own 0600 file under sessions/). */
export interface StoredSession {
  id: string;
  accountId: string;
  type: string;
  nickname: string;
  expiresAt: string;
  privateKey: string;
  publicKey: string;
  profile: string;
  credentialId?: string;
  createdAt: string;
  /**
   * The customer whose wallet (accountId) the session signs for, asked of the service at login and
   * carried over by a refresh, so `session show` answers offline. Absent in a file written before
   * it was kept, or when the service could not tell.
   */
  customerId?: string;
}

/** Profiles and session keys on disk; every method reads or writes the files directly. */
export interface Store {
  readonly dir: string;
  /** What opening it repaired (permissions tightened), for the user to be told once. */
  readonly notes: readonly string[];
  currentProfileName(): string; // config's `currentProfile`, default 'default'
  setCurrentProfile(name: string): void;
  getProfile(name: string): Profile | undefined;
  listProfiles(): Record<string, Profile>;
  setProfile(name: string, patch: Partial<Profile>): void; // merge; re-reads before write (concurrency)
  /** Removes the profile and its session keys; the current profile falls back to the default. False if absent. */
  deleteProfile(name: string): boolean;
  /** Moves the profile, its session keys and the current-profile mark to `to`; refuses an existing `to`. */
  renameProfile(from: string, to: string): void;
  getSession(id: string): StoredSession | undefined;
  /** The held sessions; a damaged key file is left out (damagedSessions names it). */
  listSessions(profile?: string): StoredSession[];
  /** Session key files that cannot be read as one, with why. */
  damagedSessions(): Array<{ file: string; problem: string }>;
  saveSession(s: StoredSession): void; // must not lose sessions saved concurrently by other processes
  deleteSession(id: string): void;
}
