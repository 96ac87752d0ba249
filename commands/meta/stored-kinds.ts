/** The values completion reads from the store each time (`svc completion --values <kind>`); the fixed lists are in the script. */
export const STORED_KINDS = ['sessions', 'profiles'] as const;
