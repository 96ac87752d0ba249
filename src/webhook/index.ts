/** The local webhook receiver: verify, de-duplicate, render and forward card webhooks. */
export * from './receiver.js';
export * from './dedupe.js';
export * from './envelope.js';
export * from './forward.js';
export * from './render.js';
export * from './journal/read.js';
export * from './journal/replay.js';
export * from './listener.js';
