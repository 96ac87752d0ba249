/**
 * Facts of the service that the CLI and the emulator both need, as data: identifier shapes and
 * every table of the spec's sandbox section. Nothing here does I/O or knows who uses it.
 */
export * from './identifiers.js';
export * from './suffix-table.js';
export * from './identity-magic.js';
export * from './money-magic.js';
export * from './auth-magic.js';
export * from './identity-rules.js';
export * from './payment-enums.js';
export * from './webhook-types.js';
export * from './card-magic.js';
export * from './sca-magic.js';
export * from './no-route.js';
export * from './emulator-endpoints.js';
