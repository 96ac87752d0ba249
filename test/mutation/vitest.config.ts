/**
 * The vitest config of a mutation run (test/mutation/run.mjs): the suite's settings, only the
 * scope's test files (SVC_MUTATION_TESTS, comma-separated), no build (mutants live in src/, which
 * these tests import), and the reporter that turns a file that failed to load into a failed test.
 */
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

const include = (process.env.SVC_MUTATION_TESTS ?? '').split(',').filter(Boolean);
if (include.length === 0) throw new Error('SVC_MUTATION_TESTS names no test file: run npm run mutation');

// Spread, not mergeConfig: merging would add the suite's own include (every test) to the scope's.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include,
    globalSetup: [],
    reporters: ['default', './test/mutation/load-failure-reporter.ts'],
  },
});
