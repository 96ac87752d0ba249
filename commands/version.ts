// Kept in step with package.json by a test (test/unit/program.test.ts, "reports the version").
export const VERSION = '0.1.0';
