/** The sessions area's option: how long a new session lives. */
import { count, integerText, type AreaOptions } from '../../kernel/option.js';

export interface SessionsOptions {
  /** Lifetime of new sessions (default 900). */
  sessionTtlSeconds?: number;
}

export const sessionsOptions = {
  flags: {
    sessionTtlSeconds: {
      syntax: '--session-ttl <seconds>',
      description: 'lifetime of new sessions',
      default: '900',
      parse: integerText(1),
    },
  },
  resolve: (o) => ({ sessionTtlMs: count(o.sessionTtlSeconds, 900, 'sessionTtlSeconds', 1) * 1000 }),
} satisfies AreaOptions<SessionsOptions, { sessionTtlMs: number }>;
