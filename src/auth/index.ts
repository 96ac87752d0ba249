/** Terminal-free auth flows: OTP login, session refresh, list and revoke, and their 401 hints. Commands import the
 *  individual modules instead, so each loads only the crypto it needs (startup time is measured). */
export * from './auth-session.js';
export * from './hints.js';
export * from './otp-login.js';
export * from './refresh.js';
export * from './list-revoke.js';
