/**
 * How many done deliveries a --store journal keeps whole (body, headers, outcome) for `svc webhook
 * replay --store --last N`. Its own file so the verb table can show it without loading the journal.
 * Bounds memory and file: at most this many bodies (each at most the listener's 1 MiB body limit).
 */
export const DEFAULT_KEEP_DONE = 500;
