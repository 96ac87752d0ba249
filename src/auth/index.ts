/** Terminal-free auth flows: OTP login, session refresh, list and revoke, and the credential a failed session names. Commands import the
 *  individual modules instead, so each loads only the crypto it needs (startup time is measured). */
export * from './auth-session.js';
export * from './reauth.js';
export * from './otp-login.js';
export * from './refresh.js';
export * from './list-revoke.js';
export * from './credentials.js';
export * from './oidc-token.js';
export * from './oauth-login.js';
export * from './passkey-login.js';
export * from './software-passkey.js';
export * from './sealed-login.js';
export * from './store-login.js';
export * from './kept-keys.js';
