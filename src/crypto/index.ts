/** The crypto core: P-256 keys, API-key stamps, HPKE bundles and webhook signatures. */
export * from './hex.js';
export * from './keys.js';
export * from './stamp.js';
export * from './ecdsa-verify.js';
export * from './hpke.js';
export * from './bundles.js';
export * from './webhook-signature.js';
