// Kept in step with package.json by the version test (test/unit/version.test.ts).
export const VERSION = '0.1.0';
