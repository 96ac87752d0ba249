/** Shapes of the local store (contract "http / signing / store"). */

export interface Profile {
  baseUrl?: string;
  apiTokenId?: string;
  apiClientSecret?: string;
  accessToken?: string;
  otpSignerPublicKey?: string;
  webhookPublicKey?: string;
  activeSessionId?: string;
}

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
}

export interface Store {
  readonly dir: string;
  currentProfileName(): string; // config's `currentProfile`, default 'default'
  setCurrentProfile(name: string): void;
  getProfile(name: string): Profile | undefined;
  listProfiles(): Record<string, Profile>;
  setProfile(name: string, patch: Partial<Profile>): void; // merge; re-reads before write (concurrency)
  getSession(id: string): StoredSession | undefined;
  listSessions(profile?: string): StoredSession[];
  saveSession(s: StoredSession): void; // must not lose sessions saved concurrently by other processes
  deleteSession(id: string): void;
}
