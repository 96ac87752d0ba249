/** Profiles and session keys in the OS config folder, and connection resolution (flags, env, profile). */
export { openStore, PROJECT_NAME } from './store.js';
export { resolveConnection, resolveFromEnvironment, type ResolvedConnection } from './resolve.js';
export { StoreError } from './errors.js';
export type { Profile, Store, StoredSession } from './types.js';
