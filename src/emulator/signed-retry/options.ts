/** The signed retry's options: how long a challenge lives, and PROCESSING answers to exercise a client's polling. */
import { count, integerText, type AreaOptions } from '../kernel/option.js';

export interface SignedRetryOptions {
  /** 200 PROCESSING to the first N signed retries of each request (default 0). */
  processingRetries?: number;
  /** Lifetime of challenges and OTP target bundles (default 300). */
  challengeTtlSeconds?: number;
}

export const signedRetryOptions = {
  flags: {
    processingRetries: {
      syntax: '--processing-retries <n>',
      description: 'answer 200 PROCESSING to the first N signed retries of each request',
      default: '0',
      parse: integerText(0, 1000),
    },
  },
  resolve: (o) => ({
    processingRetries: count(o.processingRetries, 0, 'processingRetries'),
    challengeTtlMs: count(o.challengeTtlSeconds, 300, 'challengeTtlSeconds', 1) * 1000,
  }),
} satisfies AreaOptions<SignedRetryOptions, { processingRetries: number; challengeTtlMs: number }>;
