/** Profiles and session keys in the OS config folder, and connection resolution (flags, env, profile). */
export { openStore, PROJECT_NAME } from './store.js';
export { resolveEndpoint, selectProfile, selectProfileName, type Endpoint, type SelectedProfile } from './resolve.js';
export { StoreError } from './errors.js';
export type { Profile, Store, StoredSession } from './types.js';
